// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice Stand-in for an ERC4626 vault on a devnet (#42: the native APR from its share-price growth):
/// OpenZeppelin's ERC4626 is not installed. It answers the ERC4626 views the indexer reads — `asset()`,
/// `totalAssets()`, `totalSupply()`, `decimals()`, `convertToAssets(shares)` (shares × totalAssets /
/// totalSupply, rounded down, as ERC4626 without virtual shares) — over a fixed share supply;
/// `setTotalAssets` stands for accrued yield. No deposits, no transfers.
contract ShareVaultStandIn {
    address public immutable asset;
    uint8 public immutable decimals;
    uint256 public immutable totalSupply;
    uint256 public totalAssets;

    constructor(address asset_, uint8 decimals_, uint256 shares, uint256 assets) {
        asset = asset_;
        decimals = decimals_;
        totalSupply = shares;
        totalAssets = assets;
    }

    function setTotalAssets(uint256 assets) external {
        totalAssets = assets;
    }

    function convertToAssets(uint256 shares) external view returns (uint256) {
        return (shares * totalAssets) / totalSupply;
    }
}
