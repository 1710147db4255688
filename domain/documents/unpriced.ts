/**
 * Pure: `{ unpricedRewardTokens }` of a campaign or opportunity document when it names any reward token
 * its figures leave out for want of a fresh price; nothing when every reward token is priced (and for
 * documents projected before the field existed), so a priced record keeps its shape.
 */
export function unpricedOf(doc: { unpricedRewardTokens?: readonly string[] }): { unpricedRewardTokens?: string[] } {
  return doc.unpricedRewardTokens?.length ? { unpricedRewardTokens: [...doc.unpricedRewardTokens] } : {};
}
