import { catalogController } from '../registry/catalog.controller';
import { CreateChannelDto } from './dto/create-channel.dto';
import { UpdateChannelDto } from './dto/update-channel.dto';
import { CHANNELS_CATALOG } from './channels.constants';

export const ChannelsController = catalogController({
  name: 'ChannelsController',
  path: 'relay/v1/channels',
  idParam: 'channelId',
  permission: 'CHANNELS',
  operations: CHANNELS_CATALOG,
  createDto: CreateChannelDto,
  updateDto: UpdateChannelDto,
});
