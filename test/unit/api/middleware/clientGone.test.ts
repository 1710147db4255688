import { expect } from 'chai';
import { isClientGone } from '../../../../api/middleware/clientGone.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('api/middleware/clientGone (issue 44: disconnects are not errors)', () => {
  it('tells a client that closed its connection mid-answer', () => {
    expect(isClientGone(withCode('Premature close', 'ERR_STREAM_PREMATURE_CLOSE'), true)).to.equal(true);
    expect(isClientGone(withCode('write EPIPE', 'EPIPE'), true)).to.equal(true);
    expect(isClientGone(new Error('aborted'), true)).to.equal(true);
  });

  it('keeps every failure on an open connection an error, whatever its code (a PostgreSQL or RPC reset)', () => {
    expect(isClientGone(withCode('read ECONNRESET', 'ECONNRESET'), false)).to.equal(false);
    expect(isClientGone(withCode('Premature close', 'ERR_STREAM_PREMATURE_CLOSE'), false)).to.equal(false);
  });

  it('keeps other failures errors even when the client is gone', () => {
    expect(isClientGone(new Error('relation "x" does not exist'), true)).to.equal(false);
    expect(isClientGone(null, true)).to.equal(false);
  });
});
