// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IUniswapV3MintPool {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256 amount0, uint256 amount1);
    function swap(
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96,
        bytes calldata data
    ) external returns (int256 amount0, int256 amount1);
}

interface IERC20TransferFrom {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @title UniswapV3Minter
/// @notice Devnet stand-in for the periphery's position manager: adds liquidity to a real Uniswap V3
/// pool (which requires a caller implementing `uniswapV3MintCallback`) and pays it from the caller's
/// approved balances. The position belongs to the caller. It also swaps exactly-in (the router's part),
/// paying the pool through `uniswapV3SwapCallback` from the caller's approved balance.
contract UniswapV3Minter {
    /// TickMath's bounds of sqrtPriceX96 (exclusive): a swap limited just inside them is limited by its amount only.
    uint160 private constant MIN_SQRT_RATIO = 4295128739;
    uint160 private constant MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342;

    /// The pool of the mint or swap in progress: only it may pull tokens through the callbacks.
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

    /// @notice Swaps exactly `amountIn` of token0 (`zeroForOne`) or token1 into `pool`, the output to
    /// msg.sender, who pays the input (approved to this contract). No price limit but TickMath's bounds.
    function swap(address pool, bool zeroForOne, uint256 amountIn) external returns (int256 amount0, int256 amount1) {
        activePool = pool;
        payer = msg.sender;
        (amount0, amount1) = IUniswapV3MintPool(pool).swap(
            msg.sender, zeroForOne, int256(amountIn), zeroForOne ? MIN_SQRT_RATIO + 1 : MAX_SQRT_RATIO - 1, ""
        );
        activePool = address(0);
        payer = address(0);
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        if (msg.sender != activePool || activePool == address(0)) revert UnexpectedCallback(msg.sender);
        IUniswapV3MintPool pool = IUniswapV3MintPool(msg.sender);
        // The pool's side of the swap is positive: what it is owed.
        if (amount0Delta > 0) {
            IERC20TransferFrom(pool.token0()).transferFrom(payer, msg.sender, uint256(amount0Delta));
        }
        if (amount1Delta > 0) {
            IERC20TransferFrom(pool.token1()).transferFrom(payer, msg.sender, uint256(amount1Delta));
        }
    }
}
