import { expect } from 'chai';
import { loadConfig } from '../../../internal/config.js';
import { ConfigError } from '../../../internal/errors.js';

describe('config: CORS_ORIGINS', function () {
  const load = (value?: string) =>
    loadConfig({ NODE_ENV: 'test', ...(value === undefined ? {} : { CORS_ORIGINS: value }) });

  it('defaults to no listed origin (public reads still answer any origin)', function () {
    expect(load().corsOrigins).to.deep.equal([]);
    expect(load('').corsOrigins).to.deep.equal([]);
  });

  it('reads a comma-separated list of origins, lower-cased and once each', function () {
    expect(
      load('https://app.example, http://127.0.0.1:5173,HTTPS://APP.EXAMPLE,http://[::1]:8080').corsOrigins,
    ).to.deep.equal(['https://app.example', 'http://127.0.0.1:5173', 'http://[::1]:8080']);
  });

  for (const bad of [
    '*',
    'app.example',
    'https://app.example/',
    'https://app.example/path',
    'https://*.example',
    'ftp://app.example',
    'https://app.example:443',
    'null',
  ]) {
    it(`refuses ${JSON.stringify(bad)}, naming CORS_ORIGINS`, function () {
      expect(() => load(`https://ok.example,${bad}`)).to.throw(ConfigError, /CORS_ORIGINS/);
    });
  }
});
