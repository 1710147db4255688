import { errors as esErrors } from '@elastic/elasticsearch';
import { expect } from 'chai';
import pg from 'pg';
import { BaseError as ViemBaseError, HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import { AppError, ServiceUnavailableError } from '../../../../api/errors.js';
import { PROBLEMS } from '../../../../api/problems/registry.js';
import { classifyElasticsearchError } from '../../../../internal/errorSources/elasticsearch.js';
import { classifyFetchError, classifyHttpStatus } from '../../../../internal/errorSources/http.js';
import { classifySourceError, isRetryable, traitsOf } from '../../../../internal/errorSources/index.js';
import { classifyPostgresError, isPostgresUnavailable } from '../../../../internal/errorSources/postgres.js';
import { classifyRpcError, isRetryableRpcError } from '../../../../internal/errorSources/rpc.js';
import { BaseError } from '../../../../internal/errors.js';

/** node-postgres' error for a server answer carrying `code` (pg-protocol's DatabaseError). */
const pgError = (code: string, message = 'server said no') =>
  Object.assign(new pg.DatabaseError(message, 0, 'error'), { code });
/** Node's error for a socket that failed with `code`. */
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });
const esResponse = (statusCode: number, type?: string) =>
  new esErrors.ResponseError({
    body: type ? { error: { type, reason: 'detail' }, status: statusCode } : {},
    statusCode,
    headers: {},
    warnings: null,
    meta: {} as never,
  });
const httpRequestError = (status?: number) =>
  new HttpRequestError({ url: 'http://node:8545', body: { method: 'eth_call' }, ...(status ? { status } : {}) });

describe('internal/errorSources: one classifier per source', () => {
  describe('PostgreSQL', () => {
    it('classifies outages (sockets, shutdown, too many connections, class 08, lost connection) as retryable and unavailable', () => {
      for (const error of [
        socketError('ECONNREFUSED'),
        socketError('ECONNRESET'),
        pgError('57P01', 'terminating connection due to administrator command'),
        pgError('57P03', 'the database system is starting up'),
        pgError('53300', 'sorry, too many clients already'),
        pgError('08006'),
        new Error('Connection terminated unexpectedly'),
        new Error('timeout exceeded when trying to connect'),
      ]) {
        expect(isPostgresUnavailable(error), error.message).to.equal(true);
        expect(classifyPostgresError(error), error.message).to.include({
          source: 'postgresql',
          retryable: true,
          unavailable: true,
          userError: false,
        });
      }
    });

    it('classifies a statement timeout (57014) as retryable and unavailable, named', () => {
      expect(classifyPostgresError(pgError('57014', 'canceling statement due to statement timeout'))).to.deep.equal({
        source: 'postgresql',
        retryable: true,
        userError: false,
        unavailable: true,
        reason: 'statement timeout',
      });
    });

    it('retries serialization failures, deadlocks and lock timeouts; constraint and data errors are fatal', () => {
      for (const code of ['40001', '40P01', '55P03'])
        expect(classifyPostgresError(pgError(code)), code).to.include({ retryable: true, unavailable: false });
      for (const code of ['23505', '23503', '22012', '42P01'])
        expect(classifyPostgresError(pgError(code)), code).to.include({
          retryable: false,
          unavailable: false,
          userError: false,
        });
    });

    it('leaves errors of other sources alone', () => {
      expect(classifyPostgresError(new Error('boom'))).to.equal(null);
      expect(classifyPostgresError(httpRequestError(503))).to.equal(null);
    });
  });

  describe('Elasticsearch', () => {
    it('classifies no connection, timeouts, overload (429/503) and a missing index as retryable outages', () => {
      for (const error of [
        new esErrors.ConnectionError('connect ECONNREFUSED'),
        new esErrors.TimeoutError('Request timed out'),
        new esErrors.NoLivingConnectionsError('none', {} as never),
        esResponse(429, 'es_rejected_execution_exception'),
        esResponse(503),
        esResponse(404, 'index_not_found_exception'),
      ])
        expect(classifyElasticsearchError(error), error.name).to.include({
          source: 'elasticsearch',
          retryable: true,
          unavailable: true,
          userError: false,
        });
    });

    it('retries another 5xx without calling it an outage; a refused request (4xx) is fatal and ours', () => {
      expect(classifyElasticsearchError(esResponse(500))).to.include({ retryable: true, unavailable: false });
      expect(classifyElasticsearchError(esResponse(400, 'search_phase_execution_exception'))).to.deep.equal({
        source: 'elasticsearch',
        retryable: false,
        userError: false,
        unavailable: false,
        reason: 'search_phase_execution_exception',
      });
      expect(classifyElasticsearchError(new esErrors.RequestAbortedError('aborted'))).to.include({
        retryable: false,
      });
      expect(classifyElasticsearchError(pgError('57014'))).to.equal(null);
    });
  });

  describe('RPC (viem)', () => {
    it('retries timeouts, network failures, 429 and 5xx, also wrapped in a call error; the transport errors are outages', () => {
      const wrapped = new ViemBaseError('contract call failed', { cause: httpRequestError(502) });
      for (const error of [
        new TimeoutError({ body: { method: 'eth_call' }, url: 'http://node:8545' }),
        httpRequestError(),
        httpRequestError(429),
        httpRequestError(503),
        wrapped,
      ])
        expect(isRetryableRpcError(error), error.name).to.equal(true);
      expect(classifyRpcError(httpRequestError(503))).to.include({
        source: 'rpc',
        unavailable: true,
        reason: 'HTTP 503',
      });
      expect(classifyRpcError(wrapped)).to.include({ retryable: true, unavailable: false });
    });

    it('retries node-side limits (-32005) but not bad params (-32602) or a 4xx, never the caller’s fault', () => {
      const rpc = (code: number) =>
        new RpcRequestError({ body: { method: 'eth_getLogs' }, error: { code, message: 'refused' }, url: 'http://n' });
      expect(classifyRpcError(rpc(-32005))).to.include({ retryable: true, unavailable: true, userError: false });
      expect(classifyRpcError(rpc(-32602))).to.include({ retryable: false, unavailable: true, userError: false });
      expect(classifyRpcError(httpRequestError(400))).to.include({ retryable: false });
      expect(classifyRpcError(new Error('execution reverted'))).to.equal(null);
    });
  });

  describe('HTTP sources (price API, tree hosting, benchmark rates, identity provider)', () => {
    it('retries 408, 429 and 5xx; other statuses are fatal', () => {
      for (const status of [408, 429, 500, 502, 503, 504])
        expect(classifyHttpStatus(status), String(status)).to.include({ retryable: true, unavailable: true });
      for (const status of [400, 401, 403, 404, 410, 422])
        expect(classifyHttpStatus(status), String(status)).to.include({ retryable: false, userError: false });
    });

    it('retries a fetch that got no answer (TypeError, TimeoutError), not our own abort', () => {
      const refused = new TypeError('fetch failed', { cause: socketError('ECONNREFUSED') });
      expect(classifyFetchError(refused)).to.include({ retryable: true });
      expect(classifyFetchError(new DOMException('no answer', 'TimeoutError'))).to.include({ retryable: true });
      expect(classifyFetchError(new DOMException('stopped', 'AbortError'))).to.include({ retryable: false });
      expect(classifyFetchError(new RangeError('x'))).to.equal(null);
    });
  });

  describe('traitsOf: the one question jobs and the API ask', () => {
    it('reads our errors’ own flags, the API’s AppError included (one root)', () => {
      const conflict = new AppError(PROBLEMS.CONFLICT, 'taken');
      expect(conflict).to.be.instanceOf(BaseError);
      expect(traitsOf(conflict)).to.deep.equal({ retryable: false, userError: true });
      expect(traitsOf(new ServiceUnavailableError('postgresql'))).to.deep.equal({ retryable: true, userError: false });
      expect(traitsOf(new AppError(PROBLEMS.RATE_LIMITED, 'slow down'))).to.deep.equal({
        retryable: true,
        userError: true,
      });
      expect(traitsOf(new BaseError('x', { retryable: true }))).to.deep.equal({ retryable: true, userError: false });
    });

    it('classifies library errors by source, looks through plain wrappers, and calls anything else fatal', () => {
      expect(isRetryable(pgError('40001'))).to.equal(true);
      expect(isRetryable(new Error('summary', { cause: httpRequestError(503) }))).to.equal(true);
      expect(isRetryable(new Error('bug'))).to.equal(false);
      expect(isRetryable('a string')).to.equal(false);
      // Elasticsearch first (its own classes), then PostgreSQL (a bare socket code), then RPC.
      expect(classifySourceError(socketError('ECONNREFUSED'))?.source).to.equal('postgresql');
      expect(classifySourceError(new esErrors.ConnectionError('connect ECONNREFUSED'))?.source).to.equal(
        'elasticsearch',
      );
      expect(classifySourceError(httpRequestError(503))?.source).to.equal('rpc');
    });
  });
});
