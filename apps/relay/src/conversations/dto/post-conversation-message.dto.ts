import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** D57: `POST …/messages {text}`. */
export class PostConversationMessageDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(20_000)
  text: string;
}
