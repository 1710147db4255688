import { expect } from 'chai';
import { getRevertErrorName } from '../../../contracts/actions.js';

/** Asserts that `promise` rejects with the decoded custom error `errorName`. */
export async function expectRevert(promise: Promise<unknown>, errorName: string): Promise<void> {
  let error: unknown;
  try {
    await promise;
  } catch (err) {
    error = err;
  }
  expect(error, `expected a revert with ${errorName}`).to.not.equal(undefined);
  expect(getRevertErrorName(error), String(error)).to.equal(errorName);
}
