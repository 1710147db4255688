import { ValidationError } from '../../errors.js';

/**
 * An amount as an exact decimal of at most 6 places (`1e-7` or `0.1234567` is a 400 naming the
 * field); a string is taken as written, so amounts past a double's precision stay exact.
 */
export function decimalOf(value: number | string, field: string, { positive = true } = {}): string {
  const text = String(value);
  if (!/^\d+(\.\d{1,6})?$/.test(text))
    throw new ValidationError([{ field, message: 'must be a decimal with at most 6 decimal places' }]);
  const [whole = '', fraction = ''] = text.split('.');
  const wholeDigits = whole.replace(/^0+(?=\d)/, '');
  const over =
    wholeDigits.length > 13 ||
    (wholeDigits.length === 13 && (wholeDigits !== '1000000000000' || /[1-9]/.test(fraction)));
  if (over) throw new ValidationError([{ field, message: 'must be at most 1000000000000' }]);
  if (positive && !/[1-9]/.test(text)) throw new ValidationError([{ field, message: 'must be greater than 0' }]);
  return text;
}
