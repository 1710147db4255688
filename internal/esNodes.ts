/**
 * Pure: the node URLs of an `ES_URL` value, one or several separated by commas (blanks around them
 * ignored). Its own module so config validation does not load the Elasticsearch client.
 */
export function parseEsNodes(value: string | readonly string[]): string[] {
  const list = typeof value === 'string' ? value.split(',') : value;
  return list.map((n) => n.trim()).filter((n) => n !== '');
}
