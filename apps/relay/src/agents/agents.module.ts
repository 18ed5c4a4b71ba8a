import { Module } from '@nestjs/common';

import { McpServersModule } from '../mcp-servers/mcp-servers.module';
import { AgentsController } from './agents.controller';
import { AgentsListener } from './agents.listener';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';

@Module({
  // The CredentialCipher that seals an agent's A2A credential (D37).
  imports: [McpServersModule],
  controllers: [AgentsController],
  providers: [AgentsRepository, AgentsService, AgentsListener],
})
export class AgentsModule {}
