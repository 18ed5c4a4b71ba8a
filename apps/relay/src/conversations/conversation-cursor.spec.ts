import { decodeCursor, encodeCursor } from './conversation-cursor';
import { ConversationsException } from './conversations.exception';

describe(decodeCursor.name, () => {
  it('should give back the position it was made from when the cursor is ours', () => {
    const position = { at: '2026-12-07T09:00:00.000Z', id: '11111111-1111-4111-8111-111111111111' };

    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it.each(['not-base64-json', Buffer.from('["x","y"]').toString('base64url'), ''])(
    'should refuse %p when it is not a cursor this API gave out',
    (cursor) => {
      expect(() => decodeCursor(cursor)).toThrow(ConversationsException);
    },
  );
});
