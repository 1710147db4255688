import { expect } from 'chai';
import { createJsonSplitter, JsonSplitError, MAX_VALUE_CHARS } from '../../../../indexer/decode/splitJsonDocument.js';

/** A deterministic pseudo-random source (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_STRINGS = ['', 'a"b', 'back\\slash', '\\', '\\\\"', 'tab\there', 'é€😀', '}]{[,:', '\u0000\u001f', '"'];

function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 4 : 6));
  if (pick === 0) return ODD_STRINGS[Math.floor(next() * ODD_STRINGS.length)];
  if (pick === 1) return Math.round(next() * 1e6) / (next() < 0.5 ? 1 : 1000) - 500;
  if (pick === 2) return [true, false, null][Math.floor(next() * 3)];
  if (pick === 3) return `0x${Math.floor(next() * 1e12).toString(16)}`;
  if (pick === 4) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
  return Object.fromEntries(
    Array.from({ length: Math.floor(next() * 4) }, (_, i) => [`k${i}${ODD_STRINGS[i % 3]}`, value(next, depth + 1)]),
  );
}

function documentOf(next: () => number) {
  const doc: Record<string, unknown> = {};
  const keys = ['alpha', 'rewards', 'gamma"q', 'de\\lta'];
  for (const key of keys)
    if (next() < 0.8)
      doc[key] =
        key === 'rewards' ? Array.from({ length: Math.floor(next() * 6) }, () => value(next, 1)) : value(next, 1);
  return doc;
}

/** Splits `text` fed in pieces of 1..`max` characters; what came out, or the error. */
function split(text: string, next: () => number, max = 13) {
  const members: Record<string, unknown> = {};
  const elements: unknown[] = [];
  let array = false;
  const splitter = createJsonSplitter('rewards', {
    member: (key, v) => {
      members[key] = v;
    },
    arrayStart: () => {
      array = true;
    },
    element: (index, v) => {
      expect(index).to.equal(elements.length);
      elements.push(v);
    },
  });
  for (let i = 0; i < text.length; ) {
    const size = 1 + Math.floor(next() * max);
    splitter.write(text.slice(i, i + size));
    i += size;
  }
  splitter.end();
  if (array) members['rewards'] = elements;
  return members;
}

const outcome = (run: () => unknown) => {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error };
  }
};

describe('indexer/decode/splitJsonDocument: a JSON object split into members and array elements', () => {
  it('gives what JSON.parse gives, for documents with odd strings cut anywhere', () => {
    const next = random(30);
    for (let n = 0; n < 500; n++) {
      const doc = documentOf(next);
      const text = JSON.stringify(doc, null, n % 3 === 0 ? 2 : undefined);
      expect(split(text, next), text).to.deep.equal(JSON.parse(text));
    }
  });

  it('refuses exactly the texts JSON.parse refuses (or that are not an object), after one character is changed', () => {
    const next = random(31);
    const noise = ['{', '}', '[', ']', ',', ':', '"', '\\', ' ', 'x', '1'];
    let refused = 0;
    for (let n = 0; n < 3000; n++) {
      const text = JSON.stringify(documentOf(next));
      const at = Math.floor(next() * text.length);
      const mode = Math.floor(next() * 3);
      const c = noise[Math.floor(next() * noise.length)]!;
      const changed =
        mode === 0
          ? text.slice(0, at) + text.slice(at + 1)
          : mode === 1
            ? text.slice(0, at) + c + text.slice(at)
            : text.slice(0, at) + c + text.slice(at + 1);
      const expected = outcome(() => {
        const parsed = JSON.parse(changed);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
        return parsed;
      });
      const got = outcome(() => split(changed, next));
      expect(got.ok, changed).to.equal(expected.ok);
      if (got.ok) expect(got.value, changed).to.deep.equal(expected.value);
      else {
        expect(got.error, changed).to.be.instanceOf(JsonSplitError);
        refused += 1;
      }
    }
    expect(refused, 'some texts were refused').to.be.greaterThan(1000);
  });

  it('refuses a truncated document, trailing text and a value over the size bound', () => {
    const next = random(32);
    const text = JSON.stringify({ rewards: [{ a: 1 }, { b: '2' }], root: 'x' });
    for (let cut = 0; cut < text.length; cut++)
      expect(() => split(text.slice(0, cut), next), `cut at ${cut}`).to.throw(JsonSplitError, 'not JSON');
    expect(() => split(`${text} {}`, next)).to.throw(JsonSplitError, 'not JSON');
    const large = JSON.stringify({ rewards: [{ a: 'x'.repeat(MAX_VALUE_CHARS) }] });
    expect(() => split(large, next, 1 << 20)).to.throw(JsonSplitError, '/rewards/0 is over 16 MiB');
  });
});

describe('indexer/decode/splitJsonDocument with a top-level array and lone values', () => {
  /** Splits `text` with both options: an array's elements or the lone value (an object's members), or the error. */
  function splitAny(text: string, next: () => number, max = 13) {
    const members: Record<string, unknown> = {};
    const elements: unknown[] = [];
    let shape = 'object' as 'object' | 'array' | 'value';
    let whole: unknown;
    const splitter = createJsonSplitter(
      'rewards',
      {
        member: (key, v) => {
          members[key] = v;
        },
        arrayStart: (key) => {
          if (key === '') shape = 'array';
        },
        element: (index, v) => {
          expect(index).to.equal(elements.length);
          elements.push(v);
        },
      },
      {
        topLevelArray: true,
        otherValue: (v) => {
          shape = 'value';
          whole = v;
        },
      },
    );
    for (let i = 0; i < text.length; ) {
      const size = 1 + Math.floor(next() * max);
      splitter.write(text.slice(i, i + size));
      i += size;
    }
    splitter.end();
    if (shape === 'array') return elements;
    if (shape === 'value') return whole;
    return members;
  }

  it('splits an array into its elements and hands a lone value whole, as JSON.parse reads them', () => {
    const next = random(33);
    for (let n = 0; n < 300; n++) {
      const elements = Array.from({ length: Math.floor(next() * 6) }, () => value(next, 1));
      const text = JSON.stringify(elements, null, n % 3 === 0 ? 2 : undefined);
      expect(splitAny(text, next), text).to.deep.equal(JSON.parse(text));
    }
    for (const text of ['"a\\"b"', '42', '-1.5e3 ', ' true', 'null', '""']) {
      expect(splitAny(text, next), text).to.deep.equal(JSON.parse(text));
    }
  });

  it('refuses exactly the array texts JSON.parse refuses, after one character is changed', () => {
    const next = random(34);
    const noise = ['{', '}', '[', ']', ',', ':', '"', '\\', ' ', 'x', '1'];
    let refused = 0;
    for (let n = 0; n < 2000; n++) {
      const text = JSON.stringify(Array.from({ length: 1 + Math.floor(next() * 4) }, () => value(next, 1)));
      const at = Math.floor(next() * text.length);
      const c = noise[Math.floor(next() * noise.length)]!;
      const changed = next() < 0.5 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + c + text.slice(at);
      const expected = outcome(() => JSON.parse(changed));
      // An object is split into members: compare only arrays and lone values here.
      if (expected.ok && typeof expected.value === 'object' && expected.value && !Array.isArray(expected.value))
        continue;
      const got = outcome(() => splitAny(changed, next));
      expect(got.ok, changed).to.equal(expected.ok);
      if (got.ok) expect(got.value, changed).to.deep.equal(expected.value);
      else {
        expect(got.error, changed).to.be.instanceOf(JsonSplitError);
        refused += 1;
      }
    }
    expect(refused, 'some texts were refused').to.be.greaterThan(500);
  });

  it('names an element of a top-level array by its index alone, and refuses a lone value without otherValue', () => {
    const next = random(35);
    const large = JSON.stringify([{ a: 1 }, { a: 'x'.repeat(MAX_VALUE_CHARS) }]);
    expect(() => splitAny(large, next, 1 << 20)).to.throw(JsonSplitError, '/1 is over 16 MiB');
    const plain = createJsonSplitter('rewards', { member() {}, arrayStart() {}, element() {} });
    expect(() => plain.write('[1]')).to.throw(JsonSplitError, 'not JSON');
    const lone = createJsonSplitter('rewards', { member() {}, arrayStart() {}, element() {} });
    expect(() => lone.write('"x"')).to.throw(JsonSplitError, 'not JSON');
    expect(() => splitAny('[1] [2]', next)).to.throw(JsonSplitError, 'not JSON');
    expect(() => splitAny('42 x', next)).to.throw(JsonSplitError, 'not JSON');
  });
});
