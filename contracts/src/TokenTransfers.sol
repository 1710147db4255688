// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title TokenTransfers
/// @notice ERC20 transfers that accept tokens returning nothing or `true`, and revert on anything else.
library TokenTransfers {
    error TokenTransferFailed(address token);

    function safeTransfer(address token, address to, uint256 amount) internal {
        _call(token, abi.encodeWithSelector(0xa9059cbb, to, amount));
    }

    function safeTransferFrom(address token, address from, address to, uint256 amount) internal {
        _call(token, abi.encodeWithSelector(0x23b872dd, from, to, amount));
    }

    function _call(address token, bytes memory data) private {
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok && ret.length != 0) {
            // Bubble the token's own revert data (e.g. an insufficient allowance error).
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        if (!ok || token.code.length == 0 || (ret.length != 0 && !abi.decode(ret, (bool)))) revert TokenTransferFailed(token);
    }
}
