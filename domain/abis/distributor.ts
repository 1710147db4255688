import { parseAbi } from 'viem';

/** Distributor events we index (docs/contracts.md#distributor-events); topic0 depends only on the types. */
export const distributorAbi = parseAbi([
  'event TreeUpdated(bytes32 merkleRoot, bytes32 ipfsHash, uint48 endOfDisputePeriod)',
  'event Revoked()',
  'event Claimed(address indexed user, address indexed token, uint256 amount)',
  'event Disputed(string reason)',
  'event DisputeResolved(bool valid)',
]);

const event = <N extends (typeof distributorAbi)[number]['name']>(name: N) =>
  distributorAbi.find((x): x is Extract<(typeof distributorAbi)[number], { name: N }> => x.name === name)!;

export const treeUpdatedEvent = event('TreeUpdated');
export const revokedEvent = event('Revoked');
export const claimedEvent = event('Claimed');
export const disputedEvent = event('Disputed');
export const disputeResolvedEvent = event('DisputeResolved');

/** The root-lifecycle events of the roots job, fetched in one getLogs call so their order is kept. */
export const rootLifecycleEvents = [treeUpdatedEvent, revokedEvent, disputedEvent, disputeResolvedEvent] as const;

/** The Distributor getter the roots job reads where no event carries the value (docs/contracts.md#distributor-functions and #dispute-period-and-the-live-root). */
export const distributorReadAbi = parseAbi([
  'function endOfDisputePeriod() view returns (uint48)',
  'function disputer() view returns (address)',
]);
