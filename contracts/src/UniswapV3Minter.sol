// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IUniswapV3MintPool {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256 amount0, uint256 amount1);
}

interface IERC20TransferFrom {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @title UniswapV3Minter
/// @notice Devnet stand-in for the periphery's position manager: adds liquidity to a real Uniswap V3
/// pool (which requires a caller implementing `uniswapV3MintCallback`) and pays it from the caller's
/// approved balances. The position belongs to the caller.
contract UniswapV3Minter {
    /// The pool of the mint in progress: only it may pull tokens through the callback.
    address private activePool;
    address private payer;

    error UnexpectedCallback(address caller);

    /// @notice Mints `liquidity` in [tickLower, tickUpper) of `pool` for msg.sender, who must have approved this contract.
    function mint(address pool, int24 tickLower, int24 tickUpper, uint128 liquidity)
        external
        returns (uint256 amount0, uint256 amount1)
    {
        activePool = pool;
        payer = msg.sender;
        (amount0, amount1) = IUniswapV3MintPool(pool).mint(msg.sender, tickLower, tickUpper, liquidity, "");
        activePool = address(0);
        payer = address(0);
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        if (msg.sender != activePool || activePool == address(0)) revert UnexpectedCallback(msg.sender);
        IUniswapV3MintPool pool = IUniswapV3MintPool(msg.sender);
        if (amount0Owed > 0) IERC20TransferFrom(pool.token0()).transferFrom(payer, msg.sender, amount0Owed);
        if (amount1Owed > 0) IERC20TransferFrom(pool.token1()).transferFrom(payer, msg.sender, amount1Owed);
    }
}
