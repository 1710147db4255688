import { expect } from 'chai';

/** GET `url`, expecting 200, and its JSON body: how the browser suites read the API beside the page. */
export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  expect(res.status, url).to.equal(200);
  return (await res.json()) as T;
}
