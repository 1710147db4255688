import { expect } from 'chai';
import { createPublicClient, custom } from 'viem';
import { capGas, gasCapped } from '../../../internal/rpc.js';
import { readsPerCall, multicallGas } from '../../../domain/boundedReads.js';

describe('internal/rpc: capGas', function () {
  const call = { to: '0x0000000000000000000000000000000000000001', data: '0x70a08231' };

  it('sets the gas of a call without one, and keeps a lower one', function () {
    expect(capGas('eth_call', [call, '0x10'], 100_000n)).to.deep.equal([{ ...call, gas: '0x186a0' }, '0x10']);
    expect(capGas('eth_call', [{ ...call, gas: '0x5208' }, 'latest'], 100_000n)).to.deep.equal([
      { ...call, gas: '0x5208' },
      'latest',
    ]);
    expect(capGas('eth_estimateGas', [{ ...call, gas: '0x1c9c380' }], 100_000n)).to.deep.equal([
      { ...call, gas: '0x186a0' },
    ]);
  });

  it('leaves methods that run no code alone', function () {
    expect(capGas('eth_getCode', [call.to, 'latest'], 100_000n)).to.deep.equal([call.to, 'latest']);
    expect(capGas('eth_blockNumber', undefined, 100_000n)).to.equal(undefined);
  });
});

describe('internal/rpc: gasCapped', function () {
  it("gives every eth_call the jobs' client sends a gas limit, a plain readContract's too", async function () {
    const sent: { method: string; params: unknown }[] = [];
    const inner = custom({
      request: async ({ method, params }) => {
        sent.push({ method, params });
        return method === 'eth_chainId' ? '0x1' : '0x';
      },
    });
    const client = createPublicClient({ transport: gasCapped(inner, 2_000_000n) });
    await client.call({ to: '0x0000000000000000000000000000000000000001', data: '0x313ce567' });
    await client.getBlockNumber().catch(() => undefined);
    const call = sent.find((s) => s.method === 'eth_call')!;
    expect((call.params as [{ gas: string }])[0].gas).to.equal('0x1e8480');
    expect(sent.find((s) => s.method === 'eth_blockNumber')?.params).to.equal(undefined);
  });
});

describe('domain/boundedReads: sizing', function () {
  it('puts as many reads in a call as fit its gas, at least one', function () {
    for (const [gasEach, callGas] of [
      [100_000n, 2_000_000n],
      [300_000n, 10_000_000n],
      [5_000_000n, 2_000_000n],
    ] as const) {
      const n = readsPerCall(gasEach, callGas);
      expect(n).to.be.at.least(1);
      if (n > 1) expect(multicallGas(n, gasEach) <= callGas).to.equal(true);
      expect(multicallGas(n + 1, gasEach) > callGas).to.equal(true);
    }
    expect(readsPerCall(300_000n, 10_000_000n)).to.equal(28);
  });
});

describe('domain/abis/boundedMulticall', function () {
  it('is the compiled contracts/src/BoundedMulticall.sol (contracts/artifacts/BoundedMulticall.json)', async function () {
    const { boundedMulticallAbi, boundedMulticallBytecode } = await import('../../../domain/abis/boundedMulticall.js');
    const artifact = (await import('../../../contracts/artifacts/BoundedMulticall.json', { with: { type: 'json' } }))
      .default as { abi: unknown; bytecode: string };
    expect(boundedMulticallBytecode).to.equal(artifact.bytecode);
    expect(boundedMulticallAbi).to.deep.equal(artifact.abi);
  });
});
