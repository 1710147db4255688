import { expect } from 'chai';
import { HttpRequestError, TimeoutError } from 'viem';
import { isRangeTooLargeError, isRetryableRpcError } from '../../../internal/rpc.js';

describe('internal/rpc error classification', () => {
  it('recognizes the ways nodes refuse a getLogs range as "ask for fewer blocks"', () => {
    for (const message of [
      'query exceeds the block range limit of 3',
      'query returned more than 10000 results',
      'Log response size exceeded',
      'HTTP response body exceeded the size limit.  Max: 10485760 bytes',
      'eth_getLogs block range too large',
      'limit exceeded',
    ])
      expect(isRangeTooLargeError(new Error(message)), message).to.equal(true);
    expect(isRangeTooLargeError(new Error('execution reverted'))).to.equal(false);
  });

  it('looks through wrapped causes', () => {
    const wrapped = new Error('call failed', { cause: new Error('query returned more than 10000 results') });
    expect(isRangeTooLargeError(wrapped)).to.equal(true);
    expect(
      isRetryableRpcError(new Error('outer', { cause: new HttpRequestError({ url: 'http://x', status: 503 }) })),
    ).to.equal(true);
  });

  it('retries timeouts, 429 and 5xx, not 4xx or reverts', () => {
    expect(isRetryableRpcError(new TimeoutError({ body: {}, url: 'http://x' }))).to.equal(true);
    expect(isRetryableRpcError(new HttpRequestError({ url: 'http://x', status: 429 }))).to.equal(true);
    expect(isRetryableRpcError(new HttpRequestError({ url: 'http://x', status: 502 }))).to.equal(true);
    expect(isRetryableRpcError(new HttpRequestError({ url: 'http://x', status: 400 }))).to.equal(false);
    expect(isRetryableRpcError(new Error('execution reverted: CampaignAlreadyExists()'))).to.equal(false);
  });
});
