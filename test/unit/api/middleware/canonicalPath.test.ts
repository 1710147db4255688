import { expect } from 'chai';
import { decodeUnreserved, nonCanonicalReason } from '../../../../api/middleware/canonicalPath.js';

describe('canonicalPath', function () {
  it('decodes percent-encoded unreserved characters only', function () {
    expect(decodeUnreserved('/v4/%69nternal/%4Aobs')).to.equal('/v4/internal/Jobs');
    expect(decodeUnreserved('/v4/x/%2E%2e/%7E%5F%2D')).to.equal('/v4/x/../~_-');
    expect(decodeUnreserved('/v4/a%2Fb/%20%25')).to.equal('/v4/a%2Fb/%20%25');
  });

  it('refuses empty and dot segments, allows one trailing slash', function () {
    expect(nonCanonicalReason('/v4/internal/jobs')).to.equal(null);
    expect(nonCanonicalReason('/v4/internal/jobs/')).to.equal(null);
    expect(nonCanonicalReason('/')).to.equal(null);
    expect(nonCanonicalReason('/v4//internal/jobs')).to.match(/empty segment/);
    expect(nonCanonicalReason('//v4/internal')).to.match(/empty segment/);
    expect(nonCanonicalReason('/v4/x/../internal/jobs')).to.match(/dot segment/);
    expect(nonCanonicalReason('/v4/./internal')).to.match(/dot segment/);
    expect(nonCanonicalReason('/v4/internal/jobs/..')).to.match(/dot segment/);
  });
});
