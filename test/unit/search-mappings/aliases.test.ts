import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { toCampaignDocument } from '../../../domain/documents/campaignDocument.js';
import {
  concreteIndexName,
  INDEX_FAMILIES,
  latestVersion,
  loadIndexDefinition,
  nextIndexName,
  parseConcreteIndexName,
} from '../../../search-mappings/aliases.js';
import { campaignSource, NO_TOKEN_ROW } from '../../fixtures/indexer/campaignSource.js';

type FieldMapping = { type?: string; enabled?: boolean; dynamic?: string; properties?: Record<string, FieldMapping> };

function golden(family: string, version: number): unknown {
  return JSON.parse(
    readFileSync(new URL(`../../fixtures/search-mappings/${family}.v${version}.json`, import.meta.url), 'utf8'),
  );
}

/** Paths of `value` (recursively through objects and arrays of objects) that `mapping` does not declare. */
function undeclaredPaths(value: Record<string, unknown>, mapping: FieldMapping, path = ''): string[] {
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const field = mapping.properties?.[key];
    const at = `${path}${key}`;
    if (!field) {
      out.push(at);
      continue;
    }
    if (field.enabled === false) continue;
    for (const item of Array.isArray(child) ? child : [child]) {
      if (item !== null && typeof item === 'object') {
        if (!field.properties) out.push(`${at} (object value, field has no properties)`);
        else out.push(...undeclaredPaths(item as Record<string, unknown>, field, `${at}.`));
      }
    }
  }
  return out;
}

const FITS: Record<string, (v: unknown) => boolean> = {
  keyword: (v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
  text: (v) => typeof v === 'string',
  integer: (v) => Number.isInteger(v) && Math.abs(v as number) <= 2 ** 31 - 1,
  long: (v) => Number.isSafeInteger(v),
  double: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  date: (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
};

/** Leaf values that the field type of `mapping` would reject (null is always accepted). */
function misfits(value: Record<string, unknown>, mapping: FieldMapping, path = ''): string[] {
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    const field = mapping.properties?.[key];
    if (!field || field.enabled === false) continue;
    for (const item of Array.isArray(child) ? child : [child]) {
      if (item === null) continue;
      if (typeof item === 'object') out.push(...misfits(item as Record<string, unknown>, field, `${path}${key}.`));
      else if (field.type && FITS[field.type] && !FITS[field.type]!(item))
        out.push(`${path}${key}: ${JSON.stringify(item)} is not ${field.type}`);
    }
  }
  return out;
}

function containsPartial(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(containsPartial);
  if (node && typeof node === 'object')
    return Object.entries(node).some(([k, v]) => k === '$partial' || containsPartial(v));
  return false;
}

describe('search-mappings/aliases', () => {
  describe('loadIndexDefinition', () => {
    for (const family of INDEX_FAMILIES) {
      it(`resolves every version of ${family} to its golden definition`, () => {
        for (let version = 1; version <= latestVersion(family); version++) {
          expect(loadIndexDefinition(family, version), `${family} v${version}`).to.deep.equal(golden(family, version));
        }
      });

      it(`leaves no $partial reference in ${family}`, () => {
        expect(containsPartial(loadIndexDefinition(family, latestVersion(family)))).to.equal(false);
      });
    }

    it('throws for a version that is not shipped', () => {
      expect(() => loadIndexDefinition('campaigns', latestVersion('campaigns') + 1)).to.throw(/ENOENT|no such file/);
    });
  });

  describe('latestVersion', () => {
    it('is a positive integer for every family', () => {
      for (const family of INDEX_FAMILIES) {
        const version = latestVersion(family);
        expect(Number.isInteger(version) && version >= 1, family).to.equal(true);
      }
    });
  });

  describe('campaigns mapping against toCampaignDocument', () => {
    const mappings = loadIndexDefinition('campaigns', latestVersion('campaigns')).mappings as FieldMapping;
    const documents = {
      'with a token row': toCampaignDocument(
        campaignSource(),
        new Map([[31338, 'Devnet Beta']]),
        new Date('2024-05-01T00:00:00Z'),
      ),
      'without a token row': toCampaignDocument(
        campaignSource(NO_TOKEN_ROW),
        new Map(),
        new Date('2024-05-01T00:00:00Z'),
      ),
    };

    it('is strict at the top level and in every sub-object that is indexed', () => {
      expect(mappings.dynamic).to.equal('strict');
      for (const [name, field] of Object.entries(mappings.properties ?? {})) {
        if (field.properties) expect(field.dynamic, name).to.equal('strict');
      }
    });

    for (const [label, doc] of Object.entries(documents)) {
      it(`declares every key of a document ${label} (objects mapped enabled: false need no sub-properties)`, () => {
        expect(undeclaredPaths(doc, mappings)).to.deep.equal([]);
      });

      it(`accepts every leaf value of a document ${label} in its field type`, () => {
        expect(misfits(doc, mappings)).to.deep.equal([]);
      });
    }

    it('flags undeclared keys but not the content of enabled: false objects (the check itself can fail)', () => {
      const doc = {
        ...documents['with a token row'],
        extra: 1,
        creator: { address: '0x', tags: [], creatorId: null, nickname: 'x' },
        params: { campaignData: '0x', anything: { nested: true } },
      };
      expect(undeclaredPaths(doc, mappings)).to.have.members(['extra', 'creator.nickname']);
    });

    it('flags a value its field type would reject (the check itself can fail)', () => {
      const doc = { ...documents['with a token row'], startTimestamp: 'soon', hidden: 'no' };
      expect(misfits(doc, mappings)).to.have.length(2);
    });
  });

  describe('concrete index names', () => {
    it('keeps <prefix>-<family>_vN for the first build and adds _r<K> for rebuilds', () => {
      expect(concreteIndexName('rewards', 'campaigns', 1)).to.equal('rewards-campaigns_v1');
      expect(concreteIndexName('rewards', 'campaigns', 1, 3)).to.equal('rewards-campaigns_v1_r3');
    });

    it('parses only names of its own prefix and family', () => {
      expect(parseConcreteIndexName('rewards', 'campaigns', 'rewards-campaigns_v2_r4')).to.deep.equal({
        version: 2,
        rebuild: 4,
      });
      expect(parseConcreteIndexName('rewards', 'campaigns', 'rewards-campaigns_v2')).to.deep.equal({
        version: 2,
        rebuild: 0,
      });
      for (const other of [
        'rewards-campaigns_write',
        'rewards-opportunities_v1',
        'rewards-x-campaigns_v1',
        'rewards-campaigns_v1_tmp',
      ]) {
        expect(parseConcreteIndexName('rewards', 'campaigns', other), other).to.equal(null);
      }
    });

    it('names the next build one rebuild above the highest existing build of the version', () => {
      const next = (existing: string[], version = 1) =>
        nextIndexName({ prefix: 'p', family: 'opportunities', version, existing });
      expect(next(['p-opportunities_v1'])).to.equal('p-opportunities_v1_r1');
      expect(next(['p-opportunities_v1_r1'])).to.equal('p-opportunities_v1_r2');
      expect(next(['p-opportunities_v1_r2', 'p-opportunities_v1_r7'])).to.equal('p-opportunities_v1_r8');
    });

    it('uses the plain versioned name for the first build of a new mapping version', () => {
      expect(nextIndexName({ prefix: 'p', family: 'campaigns', version: 2, existing: ['p-campaigns_v1_r5'] })).to.equal(
        'p-campaigns_v2',
      );
      expect(nextIndexName({ prefix: 'p', family: 'campaigns', version: 1, existing: [] })).to.equal('p-campaigns_v1');
    });
  });
});
