import { Dispatcher } from 'undici';

/**
 * An upstream answer's body as text, refusing more than `limit` bytes (`tooLarge` is thrown). A
 * body that declares its length within the limit is read in one piece by undici (no chunk loop,
 * no copies); one without a length, or whose length is over, is read chunk by chunk and cut at
 * the limit.
 */
export async function readBodyWithin(
  answer: Pick<Dispatcher.ResponseData, 'body' | 'headers'>,
  limit: number,
  tooLarge: () => Error,
): Promise<string> {
  const declared = Number(answer.headers['content-length']);
  if (Number.isInteger(declared) && declared >= 0 && declared <= limit) {
    return answer.body.text();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      answer.body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
