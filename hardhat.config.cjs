// Local devnet only (contracts are compiled by contracts/build.ts with solc-js, never by hardhat).
// DEVNET_CHAIN_ID picks the chain id so several devnets can run side by side.
module.exports = {
  networks: {
    hardhat: {
      chainId: Number(process.env.DEVNET_CHAIN_ID || 31337),
      mining: { auto: true, interval: 0 },
      allowBlocksWithSameTimestamp: false,
      hardfork: 'cancun',
    },
  },
};
