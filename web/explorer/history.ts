/** Pure: LIVE, SOON or PAST of a campaign window at `now` (Unix seconds). */
export function campaignStatusAt(start: number, end: number, now: number): 'LIVE' | 'SOON' | 'PAST' {
  return now < start ? 'SOON' : now >= end ? 'PAST' : 'LIVE';
}
