import { ToolGrantDto } from './create-subscription.dto';

/** D32: `PATCH` changes the tool grant and nothing else (kind and ends are the subscription). */
export class UpdateSubscriptionDto extends ToolGrantDto {}
