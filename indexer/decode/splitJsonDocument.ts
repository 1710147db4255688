import { BaseError } from '../../internal/errors.js';

/** A problem of the document's text (not of a value's meaning), with how far into the text it was. */
export class JsonSplitError extends BaseError {
  override name = 'JsonSplitError';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** What a split document hands out as it goes. */
export type JsonSplitSink = {
  /** A top-level member other than the split array, parsed. */
  member(key: string, value: unknown): void;
  /** The split array member was found (its elements follow). */
  arrayStart(key: string): void;
  /** One element of the split array, parsed, with its position. */
  element(index: number, value: unknown): void;
};

/** What a splitter reads besides a JSON object (createJsonSplitter). */
export type JsonSplitOptions = {
  /**
   * Also split a document that is an array: `arrayStart('')`, then each element as `element`, as
   * for the split member of an object (Merkl's expanded-leaf documents are a bare array).
   */
  topLevelArray?: boolean;
  /**
   * A document that is one other JSON value (a string, number, boolean or null; an array without
   * `topLevelArray`), parsed and handed here (at most MAX_VALUE_CHARS). Without it, such a text is
   * refused as not JSON.
   */
  otherValue?(value: unknown): void;
};

/** The largest single value (an element, or another member) kept to be parsed, in UTF-16 units. */
export const MAX_VALUE_CHARS = 16 * 1024 * 1024;

enum At {
  Start,
  Key,
  KeyOrEnd,
  Colon,
  Value,
  AfterValue,
  FirstElement,
  Element,
  AfterElement,
  /** Inside a document that is one value other than an object (JsonSplitOptions.otherValue). */
  Whole,
  End,
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;
const endsPrimitive = (c: number) => c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c);

const unexpected = () => new JsonSplitError('not JSON');

/** Parses one value's text; a syntax error becomes a JsonSplitError. */
function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw unexpected();
  }
}

/**
 * Splits a JSON object, as its text arrives in pieces, into its top-level members and the elements
 * of its member `arrayKey` (an array of any length), each element parsed on its own by JSON.parse
 * as soon as its text is complete; with `options`, also a document that is an array (its elements
 * split alike) or one other value. Only one value's text is held at a time (at most MAX_VALUE_CHARS),
 * so a document of any size is read in memory bounded by its largest element. The structure between
 * values (braces, brackets, commas, colons, keys) is checked here and each value by JSON.parse, so
 * text that is not one JSON object is refused. This is the hot path of reading a reward tree: strings
 * are skipped with indexOf and nothing is built for the characters between values, which reads
 * several times faster than a general streaming parser (`npm run bench:read-tree`).
 * Feed it decoded text with `write`, then call `end`.
 * @throws JsonSplitError from `write` or `end` for text that is not a JSON object or a value that
 *   is too large (the caller says where in the bytes), and whatever the sink throws.
 */
export function createJsonSplitter(arrayKey: string, sink: JsonSplitSink, options: JsonSplitOptions = {}) {
  let at: At = At.Start;
  // The document is an array (options.topLevelArray): its closing bracket ends it.
  let topArray = false;
  let key = '';
  let index = 0;
  // The value being read: its text so far (pieces of earlier writes), and where it stands.
  let pieces: string[] = [];
  let size = 0;
  let inValue = false;
  let kind: 'string' | 'composite' | 'primitive' = 'primitive';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let isKey = false;

  const where = () =>
    at === At.Element || at === At.FirstElement
      ? `${topArray ? '' : `/${arrayKey}`}/${index}`
      : at === At.Whole
        ? '/'
        : `/${key}`;

  /**
   * Starts a value at character `c`; a string's opening quote is kept as part of its text and
   * scanning goes on after it. @returns the characters consumed (1 for that quote, else 0).
   */
  function begin(c: number, forKey: boolean): number {
    inValue = true;
    isKey = forKey;
    pieces = [];
    size = 0;
    depth = 0;
    escaped = false;
    inString = c === QUOTE;
    kind = c === QUOTE ? 'string' : c === OPEN_BRACE || c === OPEN_BRACKET ? 'composite' : 'primitive';
    if (kind !== 'string') return 0;
    keep('"');
    return 1;
  }

  /** After a member or element: a comma goes on to `next`, the closing `close` to `closed`. */
  function separator(c: number, close: number, next: At, closed: At) {
    if (c === COMMA) at = next;
    else if (c === close) at = closed;
    else throw unexpected();
  }

  function keep(piece: string) {
    size += piece.length;
    if (size > MAX_VALUE_CHARS)
      throw new JsonSplitError(`${where()} is over ${MAX_VALUE_CHARS / 1024 / 1024} MiB of text`, where());
    pieces.push(piece);
  }

  /** The value's text is complete: hand it out and move on. */
  function finish() {
    const text = pieces.length === 1 ? pieces[0]! : pieces.join('');
    pieces = [];
    inValue = false;
    if (isKey) {
      key = parse(text) as string;
      at = At.Colon;
    } else if (at === At.Whole) {
      at = At.End;
      options.otherValue?.(parse(text));
    } else if (at === At.Value) {
      sink.member(key, parse(text));
      at = At.AfterValue;
    } else {
      sink.element(index, parse(text));
      index += 1;
      at = At.AfterElement;
    }
  }

  /**
   * Scans the value started at or before `from` in `s`; returns where its text ends in `s` (just
   * after its last character), or -1 when it goes on in the next piece.
   */
  function scan(s: string, from: number): number {
    let i = from;
    const n = s.length;
    while (i < n) {
      if (inString) {
        if (escaped) {
          escaped = false;
          i += 1;
          continue;
        }
        const quote = s.indexOf('"', i);
        if (quote < 0) {
          // The string goes on: is the last character an escape still to apply?
          let run = 0;
          for (let j = n - 1; j >= i && s.charCodeAt(j) === BACKSLASH; j--) run += 1;
          escaped = run % 2 === 1;
          return -1;
        }
        let run = 0;
        for (let j = quote - 1; j >= i && s.charCodeAt(j) === BACKSLASH; j--) run += 1;
        i = quote + 1;
        if (run % 2 === 1) continue;
        inString = false;
        if (kind === 'string') return i;
        continue;
      }
      const c = s.charCodeAt(i);
      if (kind === 'primitive') {
        if (endsPrimitive(c)) return i;
        i += 1;
        continue;
      }
      i += 1;
      if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth += 1;
      else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i;
    }
    return -1;
  }

  return {
    /** Reads the next piece of the text. */
    write(s: string): void {
      let i = 0;
      const n = s.length;
      while (i < n) {
        if (inValue) {
          const start = i;
          // A string's opening quote was seen by begin(): scanning starts inside it.
          const end = scan(s, i);
          if (end < 0) {
            keep(s.slice(start));
            return;
          }
          keep(s.slice(start, end));
          finish();
          i = end;
          continue;
        }
        const c = s.charCodeAt(i);
        if (isSpace(c)) {
          i += 1;
          continue;
        }
        switch (at) {
          case At.Start:
            if (c === OPEN_BRACE) {
              at = At.KeyOrEnd;
              i += 1;
            } else if (c === OPEN_BRACKET && options.topLevelArray) {
              topArray = true;
              sink.arrayStart('');
              at = At.FirstElement;
              i += 1;
            } else if (options.otherValue) {
              at = At.Whole;
              i += begin(c, false);
            } else throw unexpected();
            break;
          case At.KeyOrEnd:
          case At.Key:
            if (c === CLOSE_BRACE && at === At.KeyOrEnd) {
              at = At.End;
              i += 1;
              break;
            }
            if (c !== QUOTE) throw unexpected();
            i += begin(c, true);
            break;
          case At.Colon:
            if (c !== COLON) throw unexpected();
            at = At.Value;
            i += 1;
            break;
          case At.Value:
            if (key === arrayKey && c === OPEN_BRACKET) {
              sink.arrayStart(key);
              at = At.FirstElement;
              index = 0;
              i += 1;
              break;
            }
            i += begin(c, false);
            break;
          case At.AfterValue:
            separator(c, CLOSE_BRACE, At.Key, At.End);
            i += 1;
            break;
          case At.FirstElement:
          case At.Element:
            if (c === CLOSE_BRACKET && at === At.FirstElement) {
              at = topArray ? At.End : At.AfterValue;
              i += 1;
              break;
            }
            i += begin(c, false);
            break;
          case At.AfterElement:
            separator(c, CLOSE_BRACKET, At.Element, topArray ? At.End : At.AfterValue);
            i += 1;
            break;
          case At.Whole:
          case At.End:
            throw unexpected();
        }
      }
    },
    /** The text is over: anything left open is an error (a whole-document number or literal ends here). */
    end(): void {
      if (at === At.Whole && inValue && kind === 'primitive') finish();
      if (at !== At.End) throw unexpected();
    },
    /** Whether the top-level object is closed. */
    get ended() {
      return at === At.End;
    },
  };
}
