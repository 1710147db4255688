import { expect } from 'chai';
import { routeTemplate } from '../../../../api/usage/routeTemplate.js';

describe('api/usage/routeTemplate', () => {
  it('turns the regex source @koa/router reports for a prefixed `/` route into its template', () => {
    expect(routeTemplate('/v4/developer/keys(?:\\/|$)')).to.equal('/v4/developer/keys');
    expect(routeTemplate('/v4/internal/jobs(?:\\/|$)')).to.equal('/v4/internal/jobs');
    expect(routeTemplate('/v4(?:\\/|$)')).to.equal('/v4');
  });

  it('keeps templates as they are, without a trailing slash; (unmatched) without a route', () => {
    expect(routeTemplate('/v4/auth/nonce/:address')).to.equal('/v4/auth/nonce/:address');
    expect(routeTemplate('/v4/users/:address/')).to.equal('/v4/users/:address');
    expect(routeTemplate(undefined)).to.equal('(unmatched)');
  });
});
