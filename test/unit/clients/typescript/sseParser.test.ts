import { expect } from 'chai';
import { createSseParser, type SseMessage } from '../../../../clients/typescript/src/sseParser.js';

/** Feeds `chunks` to a fresh parser; everything it dispatched, with the comments. */
function parse(chunks: string[], lastEventId: string | null = null) {
  const parser = createSseParser({ lastEventId });
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  for (const chunk of chunks) {
    const out = parser.push(chunk);
    messages.push(...out.messages);
    comments.push(...out.comments);
  }
  return { messages, comments, retryMs: parser.retryMs };
}

/** What the API writes (api/routes/events/serialize.ts), with a heartbeat and the opening retry. */
const STREAM =
  'retry: 2000\n\n' +
  'id: 41\nevent: claim.indexed\ndata: {"id":"41","type":"claim.indexed"}\n\n' +
  ': heartbeat\n\n' +
  'id: 42\nevent: root.seen\ndata: {"id":"42","type":"root.seen"}\n\n' +
  'event: error\ndata: {"code":"SLOW_CLIENT","lastEventId":"42"}\n\n';

const EXPECTED: SseMessage[] = [
  { event: 'claim.indexed', data: '{"id":"41","type":"claim.indexed"}', id: '41' },
  { event: 'root.seen', data: '{"id":"42","type":"root.seen"}', id: '42' },
  // The error has no id line: the last id stays in force.
  { event: 'error', data: '{"code":"SLOW_CLIENT","lastEventId":"42"}', id: '42' },
];

describe('createSseParser (clients/typescript/src/sseParser.ts)', function () {
  it('parses the API stream: ids, event types, comments and the retry field', function () {
    const { messages, comments, retryMs } = parse([STREAM]);
    expect(messages).to.deep.equal(EXPECTED);
    expect(comments).to.deep.equal(['heartbeat']);
    expect(retryMs).to.equal(2000);
  });

  it('gives the same messages however the text is split into chunks (every split point, and one character at a time)', function () {
    for (const text of [STREAM, STREAM.replace(/\n/g, '\r\n'), STREAM.replace(/\n/g, '\r')]) {
      for (let i = 0; i <= text.length; i++) {
        for (let j = i; j <= text.length; j += 7) {
          expect(
            parse([text.slice(0, i), text.slice(i, j), text.slice(j)]).messages,
            `split at ${i},${j}`,
          ).to.deep.equal(EXPECTED);
        }
      }
      expect(parse([...text]).messages).to.deep.equal(EXPECTED);
    }
  });

  it('takes CRLF, CR and LF line ends, mixed, and a CRLF split between chunks as one line end', function () {
    const { messages } = parse(['data: a\r', '\ndata: b\rdata: c\n\r', '\n', 'data: d\r\n\r\n']);
    expect(messages).to.deep.equal([
      { event: 'message', data: 'a\nb\nc', id: null },
      { event: 'message', data: 'd', id: null },
    ]);
  });

  it('joins multi-line data with \\n, keeps spaces after the first, and reads fields without a colon or a space', function () {
    const { messages } = parse(['data:x\ndata:  indented\ndata\ndata: {"a":\ndata: 1}\n\n']);
    expect(messages).to.deep.equal([{ event: 'message', data: 'x\n indented\n\n{"a":\n1}', id: null }]);
  });

  it('skips comments and unknown fields, dispatches nothing without data, and keeps the id across messages and connections', function () {
    const { messages, comments } = parse(
      [': only a comment\n\nid: 7\n\nfoo: bar\nevent: x\ndata: one\n\n:\ndata: two\n\n'],
      '5',
    );
    expect(comments).to.deep.equal(['only a comment', '']);
    expect(messages).to.deep.equal([
      { event: 'x', data: 'one', id: '7' },
      { event: 'message', data: 'two', id: '7' },
    ]);
    expect(parse(['data: z\n\n'], '5').messages).to.deep.equal([{ event: 'message', data: 'z', id: '5' }]);
  });

  it('drops a leading BOM, ignores an id holding NUL and a non-numeric retry, and holds an unfinished message back', function () {
    const { messages, retryMs } = parse(['\ufeffdata: a\nid: 1\0\nretry: soon\n\n', 'data: unfinished\n']);
    expect(messages).to.deep.equal([{ event: 'message', data: 'a', id: null }]);
    expect(retryMs).to.equal(null);
  });
});
