// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Multicall3 (subset)
/// @notice The parts of the canonical Multicall3 interface viem uses, installed on devnets with
///         `hardhat_setCode` at 0xcA11bde05977b3631167028862bE2a173976CA11. Has no constructor and no
///         immutables, so the runtime code works without running creation code.
contract Multicall3 {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    error CallFailed(uint256 index, bytes returnData);

    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i; i < calls.length; ++i) {
            (bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (!success && !calls[i].allowFailure) revert CallFailed(i, ret);
            returnData[i] = Result(success, ret);
        }
    }

    function getBlockNumber() external view returns (uint256) {
        return block.number;
    }

    function getCurrentBlockTimestamp() external view returns (uint256) {
        return block.timestamp;
    }

    function getEthBalance(address addr) external view returns (uint256) {
        return addr.balance;
    }

    function getChainId() external view returns (uint256) {
        return block.chainid;
    }
}
