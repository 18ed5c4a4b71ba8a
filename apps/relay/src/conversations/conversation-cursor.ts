import { ConversationsErrorCode, ConversationsException } from './conversations.exception';

/** A keyset position `(at, id)` (D31's `nextCursor`), opaque to the caller. */
export interface CursorPosition {
  at: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (
      typeof at === 'string' &&
      !Number.isNaN(Date.parse(at)) &&
      typeof id === 'string' &&
      UUID.test(id)
    ) {
      return { at: new Date(at).toISOString(), id };
    }
  } catch {
    // Not JSON: answered below like any other cursor this API never gave out.
  }
  throw new ConversationsException(
    ConversationsErrorCode.InvalidCursor,
    'cursor is not one this API gave out',
  );
}
