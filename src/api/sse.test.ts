import { describe, expect, it } from 'vitest';
import { SseParser } from './sse';

describe('SseParser', () => {
  it('dispatches a message at each blank line, with its id and event name', () => {
    const parser = new SseParser();
    const { messages } = parser.push(
      'id: 7\nevent: asset.locked.v1\ndata: {"a":1}\n\nid: 8\ndata: plain\n\n',
    );
    expect(messages).toEqual([
      { id: '7', event: 'asset.locked.v1', data: '{"a":1}' },
      { id: '8', event: 'message', data: 'plain' },
    ]);
  });

  it('joins data lines, skips heartbeat comments and reads a retry', () => {
    const parser = new SseParser();
    const chunk = parser.push(': heartbeat\nretry: 2500\ndata: one\ndata: two\n\n');
    expect(chunk).toEqual({
      messages: [{ id: undefined, event: 'message', data: 'one\ntwo' }],
      retryMs: 2500,
    });
  });

  it('completes a message split anywhere across chunks, CRLF split between CR and LF included', () => {
    const whole = 'id: 1\r\nevent: reset\r\ndata: {}\r\n\r\n';
    for (let at = 1; at < whole.length; at++) {
      const parser = new SseParser();
      const messages = [
        ...parser.push(whole.slice(0, at)).messages,
        ...parser.push(whole.slice(at)).messages,
      ];
      expect(messages, `split at ${at}`).toEqual([{ id: '1', event: 'reset', data: '{}' }]);
    }
  });

  it('keeps the last id for messages without one, and dispatches nothing without data', () => {
    const parser = new SseParser();
    expect(parser.push('id: 3\n\n').messages).toEqual([]);
    expect(parser.push('data: x\n\n').messages).toEqual([{ id: '3', event: 'message', data: 'x' }]);
  });
});
