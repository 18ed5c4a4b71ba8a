import { EventEmitter } from 'node:events';

import { SseTarget, SseWriter } from '../../traffic/pipeline/sse-writer';

/**
 * G17: a stream the relay would write to an agent, read in this process instead: the messages
 * its `data:` lines carry, in order (what the caller was delivered).
 */
export class StreamReader extends EventEmitter implements SseTarget {
  destroyed = false;
  writableEnded = false;
  private text = '';

  writeHead(): this {
    return this;
  }

  flushHeaders(): void {}

  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }

  end(): this {
    this.writableEnded = true;
    return this;
  }

  get writer(): SseWriter {
    return new SseWriter(this);
  }

  /** Each `data:` payload that parses as JSON (priming and keep-alive events carry none). */
  messages(): unknown[] {
    const found: unknown[] = [];
    for (const event of this.text.split('\n\n')) {
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data === '' || data === '[DONE]') {
        continue;
      }
      try {
        found.push(JSON.parse(data));
      } catch {
        // not a message (a bare id line's empty data, a comment)
      }
    }
    return found;
  }
}
