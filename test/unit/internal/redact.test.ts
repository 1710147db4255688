import { expect } from 'chai';
import { HttpRequestError, TimeoutError } from 'viem';
import { describeError } from '../../../internal/errors.js';
import { redactLogged, redactText, redactUrl } from '../../../internal/redact.js';

const SECRET_URL = 'https://user:pa55@eth.provider.example:8443/v2/SECRETKEY?apikey=SECRET2#frag';
const SECRETS = /SECRETKEY|SECRET2|pa55|user:|apikey=S|eth_blockNumber/;

describe('internal/redact', function () {
  it('reduces a URL to its scheme and host, saying something was removed', function () {
    expect(redactUrl(SECRET_URL)).to.equal('https://eth.provider.example:8443/[redacted]');
    expect(redactUrl('http://127.0.0.1:8545')).to.equal('http://127.0.0.1:8545');
    expect(redactUrl('http://127.0.0.1:8545/')).to.equal('http://127.0.0.1:8545');
    expect(redactUrl('postgres://app:hunter2@db:5432/rewards')).to.equal('postgres://db:5432/[redacted]');
    expect(redactUrl('http://[::1')).to.equal('[redacted]');
  });

  it("removes viem's URL and request body from an HTTP failure, keeping the status and details", function () {
    const error = new HttpRequestError({
      url: SECRET_URL,
      status: 500,
      body: { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
      details: 'internal error',
    });
    expect(error.message, 'viem puts the secrets in its message').to.match(SECRETS);
    const text = redactText(error.message);
    expect(text).not.to.match(SECRETS);
    expect(text).to.include('HTTP request failed.');
    expect(text).to.include('Status: 500');
    expect(text).to.include('URL: https://eth.provider.example:8443/[redacted]');
    expect(text).to.include('Request body: [redacted]');
    expect(text).to.include('Details: internal error');
  });

  it('redacts the error and its cause in describeError (what job_runs, health and logs get)', function () {
    const timeout = new TimeoutError({ url: SECRET_URL, body: { method: 'eth_blockNumber' } });
    const described = describeError(new Error('head request failed', { cause: timeout }));
    expect(JSON.stringify(described)).not.to.match(SECRETS);
    expect(described.cause).to.include('The request took too long to respond.');
    expect(describeError(`see ${SECRET_URL}`).message).to.equal('see https://eth.provider.example:8443/[redacted]');
  });

  it('redacts credential pairs outside URLs, and keeps trailing punctuation and file URLs of stack traces', function () {
    expect(redactText('GET /v2/x?apikey=abc&page=2 refused (token=xyz)')).to.equal(
      'GET /v2/x?apikey=[redacted]&page=2 refused (token=[redacted])',
    );
    expect(redactText('could not reach http://h:1/k/SECRET.')).to.equal('could not reach http://h:1/[redacted].');
    const stack = 'Error: x\n    at run (file:///srv/app/jobs/runJob.ts:10:3)';
    expect(redactText(stack)).to.equal(stack);
  });

  it('redacts logged strings, errors and the string fields of an object', function () {
    expect(redactLogged(`at ${SECRET_URL}`)).to.equal('at https://eth.provider.example:8443/[redacted]');
    expect(JSON.stringify(redactLogged(new Error(`failed: ${SECRET_URL}`)))).not.to.match(SECRETS);
    expect(redactLogged({ message: SECRET_URL, attempts: 3 })).to.deep.equal({
      message: 'https://eth.provider.example:8443/[redacted]',
      attempts: 3,
    });
    expect(redactLogged(42)).to.equal(42);
  });
});
