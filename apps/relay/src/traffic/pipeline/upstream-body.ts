import { Dispatcher } from 'undici';

/** A body declaring its length within `limit` is read in one piece (no chunk loop, no copies). */
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
