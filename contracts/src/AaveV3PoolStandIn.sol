// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IERC20Transfer {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

interface IATokenMint {
    function mint(address caller, address onBehalfOf, uint256 amount, uint256 index) external returns (bool);
}

/// @notice Stand-in for Aave V3's Pool on a devnet, so the real AToken implementation
/// (the published artifact of the npm package aave core-v3 1.19.3) can be deployed and initialized standalone (#42):
/// the real Pool needs a PoolAddressesProvider, an ACLManager, a PoolConfigurator and linked logic
/// libraries, too heavy for a test. It answers exactly what the AToken asks of its pool: its
/// constructor reads `ADDRESSES_PROVIDER()`, `initialize` checks it is this pool, `totalSupply()`
/// multiplies the scaled supply by `getReserveNormalizedIncome(underlying)` (a ray), and only the
/// pool may `mint`. `supply` moves the underlying into the aToken and mints at the current index,
/// as Pool.supply does; `setNormalizedIncome` stands for accrued interest.
contract AaveV3PoolStandIn {
    address public immutable ADDRESSES_PROVIDER;
    uint256 public normalizedIncome = 1e27;

    constructor(address addressesProvider) {
        ADDRESSES_PROVIDER = addressesProvider;
    }

    function getReserveNormalizedIncome(address) external view returns (uint256) {
        return normalizedIncome;
    }

    function setNormalizedIncome(uint256 income) external {
        normalizedIncome = income;
    }

    function supply(address underlying, address aToken, uint256 amount) external {
        require(IERC20Transfer(underlying).transferFrom(msg.sender, aToken, amount), "transfer failed");
        IATokenMint(aToken).mint(msg.sender, msg.sender, amount, normalizedIncome);
    }
}
