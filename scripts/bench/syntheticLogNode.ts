/**
 * A JSON-RPC node for backfills larger than a Hardhat devnet can hold (~85 KB of state per campaign):
 * it sits in front of a real devnet (the stack deployed, one real campaign created) and adds
 * `blocks` synthetic blocks above that devnet's head, each holding `perBlock` NewCampaign logs of
 * the DistributionCreator. Nothing is stored: a block's header and logs are computed from its number,
 * so the node's memory does not grow with N.
 * - Synthetic logs are the real campaign's log with a later start timestamp and the matching
 *   campaignId (computeCampaignId, as the contract derives it), patched in place in its data.
 * - eth_blockNumber, eth_getBlockByNumber and eth_getLogs answer for the synthetic blocks; a block or
 *   log range at or below the devnet's head, and every other method, go to the devnet (an eth_call at a
 *   synthetic block runs at the devnet's latest: the tokens it reads never change).
 * - JSON-RPC batches (arrays) are answered as batches, as viem's http transport sends them.
 * - Not served for synthetic blocks: anything by block hash (eth_getBlockByHash, eth_getLogs with a
 *   blockHash), transactions and receipts. The blocks and campaigns jobs ask for none of them.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keccak256, numberToHex, stringToHex, toEventSelector, type Hex, type RpcBlock, type RpcLog } from 'viem';
import { newCampaignEvent } from '../../domain/abis/distributionCreator.js';
import { computeCampaignId } from '../../domain/campaignId.js';
import { decodeCampaignTupleData } from '../../indexer/decode/newCampaignData.js';
import { jsonRpc } from '../../contracts/devnet.js';
import { answerRpcBody, forwardRpcCall, type RpcCall } from '../../test/helpers/jsonRpcCalls.js';
import { CAMPAIGNS_PER_TX, startCampaignDevnet, type CampaignDevnet } from './campaignDevnet.js';

const NEW_CAMPAIGN_TOPIC = toEventSelector(newCampaignEvent);

export type SyntheticLogNodeParams = {
  /** The devnet below the synthetic blocks. */
  upstreamUrl: string;
  chainId: number;
  distributionCreator: Hex;
  /** The devnet's NewCampaign log whose campaign every synthetic one copies (start timestamp and id aside). */
  template: RpcLog;
  /** Synthetic campaigns, numbered 0..campaigns-1 from the first synthetic block up. */
  campaigns: number;
  perBlock: number;
};

export type SyntheticLogNode = {
  rpcUrl: string;
  /** The devnet's head: synthetic blocks are base + 1 .. head. */
  base: number;
  head: number;
  stop(): Promise<void>;
};

type LogFilter = {
  fromBlock?: Hex | string;
  toBlock?: Hex | string;
  blockHash?: Hex;
  address?: Hex | Hex[];
  topics?: unknown[];
};

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/** Starts the node on a free loopback port. */
export async function startSyntheticLogNode(params: SyntheticLogNodeParams): Promise<SyntheticLogNode> {
  const { upstreamUrl, chainId, template, campaigns, perBlock } = params;
  const creator = params.distributionCreator.toLowerCase();
  const call = (method: string, args: unknown[]) => jsonRpc(upstreamUrl, method, args);
  const baseBlock = (await call('eth_getBlockByNumber', ['latest', false])) as RpcBlock;
  const base = Number(baseBlock.number);
  const baseTime = Number(baseBlock.timestamp);
  const head = base + Math.ceil(campaigns / perBlock);
  const tuple = decodeCampaignTupleData(template.data);
  if (!tuple) throw new Error('the template log is not a plain NewCampaign log');
  // Word offsets (in hex characters) of the campaignId and startTimestamp in the template's data.
  const tupleWord = parseInt(template.data.slice(2, 66), 16) / 32;
  const idAt = 2 + tupleWord * 64;
  const startAt = 2 + (tupleWord + 5) * 64;

  const hashOf = (n: number): Hex =>
    n === base ? baseBlock.hash! : keccak256(stringToHex(`synthetic block ${chainId}/${n}`));
  const blockOf = (n: number): RpcBlock => ({
    ...baseBlock,
    number: numberToHex(n),
    hash: hashOf(n),
    parentHash: hashOf(n - 1),
    timestamp: numberToHex(baseTime + (n - base)),
    transactions: [],
  });
  const logOf = (n: number, k: number, logIndex: number): RpcLog => {
    const startTimestamp = tuple.startTimestamp + 1 + k;
    const campaignId = computeCampaignId({ chainId, ...tuple, startTimestamp });
    const data = `${template.data.slice(0, idAt)}${campaignId.slice(2)}${template.data.slice(idAt + 64, startAt)}${startTimestamp.toString(16).padStart(64, '0')}${template.data.slice(startAt + 64)}`;
    return {
      ...template,
      data: data as Hex,
      blockNumber: numberToHex(n),
      blockHash: hashOf(n),
      transactionHash: keccak256(stringToHex(`synthetic tx ${chainId}/${n}`)),
      transactionIndex: '0x0',
      logIndex: numberToHex(logIndex),
      removed: false,
    };
  };
  const blockNumberOf = (tag: unknown): number => {
    if (typeof tag === 'string' && tag.startsWith('0x')) return Number(tag);
    if (tag === 'earliest') return 0;
    return head; // latest, safe, finalized, pending
  };
  const matches = (filter: LogFilter): boolean => {
    const addresses = filter.address === undefined ? null : [filter.address].flat().map((a) => a.toLowerCase());
    if (addresses && !addresses.includes(creator)) return false;
    const topics = filter.topics ?? [];
    const first = topics[0];
    if (first !== undefined && first !== null && ![first].flat().includes(NEW_CAMPAIGN_TOPIC)) return false;
    return topics.slice(1).every((t) => t === null);
  };
  const syntheticLogs = (from: number, to: number): RpcLog[] => {
    const logs: RpcLog[] = [];
    for (let n = from; n <= to; n++) {
      const first = (n - base - 1) * perBlock;
      const last = Math.min(campaigns, first + perBlock);
      for (let k = first; k < last; k++) logs.push(logOf(n, k, k - first));
    }
    return logs;
  };

  /** The answer's `result`, or undefined when the request goes to the devnet as it is. */
  const answer = async ({ method, params: args = [] }: RpcCall): Promise<unknown> => {
    if (method === 'eth_blockNumber') return numberToHex(head);
    if (method === 'eth_getBlockByNumber') {
      const n = blockNumberOf(args[0]);
      if (n > head) return null;
      return n > base ? blockOf(n) : undefined;
    }
    if (method === 'eth_getLogs') {
      const filter = args[0] as LogFilter;
      if (filter.blockHash) return undefined; // by hash: the devnet's blocks only (our jobs ask by range)
      const from = blockNumberOf(filter.fromBlock ?? 'latest');
      const to = Math.min(head, blockNumberOf(filter.toBlock ?? 'latest'));
      if (to <= base) return undefined;
      const below =
        from <= base ? ((await call('eth_getLogs', [{ ...filter, toBlock: numberToHex(base) }])) as RpcLog[]) : [];
      return matches(filter) ? [...below, ...syntheticLogs(Math.max(from, base + 1), to)] : below;
    }
    if (method === 'eth_call' && typeof args[1] === 'string' && args[1].startsWith('0x') && Number(args[1]) > base)
      return call('eth_call', [args[0], 'latest', ...args.slice(2)]);
    return undefined;
  };
  const respond = async (request: RpcCall): Promise<unknown> => {
    try {
      const result = await answer(request);
      if (result !== undefined) return { jsonrpc: '2.0', id: request.id, result };
      return await forwardRpcCall(upstreamUrl, request);
    } catch (error) {
      return {
        jsonrpc: '2.0',
        id: request.id,
        error: { code: -32603, message: error instanceof Error ? error.message : String(error) },
      };
    }
  };

  const server: Server = createServer((req, res) => {
    readBody(req)
      .then((text) => answerRpcBody(text, respond))
      .then((reply) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply)))
      .catch((error: unknown) => {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: String(error) } }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    rpcUrl: `http://127.0.0.1:${port}`,
    base,
    head,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type SyntheticCampaignDevnet = CampaignDevnet & { node: SyntheticLogNode };

/**
 * A campaign devnet (scripts/bench/campaignDevnet.ts) with one real campaign, behind a synthetic node
 * adding `campaigns - 1` more, `CAMPAIGNS_PER_TX` per block as the devnet's transactions hold them:
 * `campaigns` NewCampaign logs in all. The caller stops `node`, then `devnet`.
 */
export async function startSyntheticCampaignDevnet({
  chainId,
  campaigns,
}: {
  chainId: number;
  campaigns: number;
}): Promise<SyntheticCampaignDevnet> {
  const real = await startCampaignDevnet({ chainId, campaigns: 1 });
  try {
    const [template] = await jsonRpc<RpcLog[]>(real.devnet.rpcUrl, 'eth_getLogs', [
      { fromBlock: '0x0', toBlock: 'latest', address: real.stack.distributionCreator, topics: [NEW_CAMPAIGN_TOPIC] },
    ]);
    if (!template) throw new Error('the devnet holds no NewCampaign log');
    const node = await startSyntheticLogNode({
      upstreamUrl: real.devnet.rpcUrl,
      chainId,
      distributionCreator: real.stack.distributionCreator,
      template,
      campaigns: campaigns - 1,
      perBlock: CAMPAIGNS_PER_TX,
    });
    return { ...real, head: node.head, node };
  } catch (error) {
    await real.devnet.stop();
    throw error;
  }
}
