// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice Deployless view multicall whose every call has its own gas limit: never deployed, its creation
/// code is sent in an eth_call without `to`; the constructor makes the calls and returns their results as
/// the "deployed code". Multicall3 forwards 63/64 of the gas left to each call, so one looping target
/// spends the budget of every call after it; here a call spends at most `gasEach`, so one target that
/// loops or reverts fails alone. Return data above `maxReturn` bytes counts as a failure and is not copied
/// (a target returning megabytes would otherwise spend the other calls' gas on memory).
/// Used by domain/boundedReads.ts (the indexer's chain reads, issue #43's bound for the jobs).
contract BoundedMulticall {
    struct Call {
        address target;
        bytes data;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    constructor(Call[] memory calls, uint256 gasEach, uint256 maxReturn) {
        Result[] memory results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            address target = calls[i].target;
            bytes memory data = calls[i].data;
            bool ok;
            uint256 size;
            assembly {
                ok := staticcall(gasEach, target, add(data, 32), mload(data), 0, 0)
                size := returndatasize()
            }
            if (size > maxReturn) {
                results[i] = Result(false, "");
                continue;
            }
            bytes memory out = new bytes(size);
            assembly {
                returndatacopy(add(out, 32), 0, size)
            }
            results[i] = Result(ok && target.code.length > 0, out);
        }
        bytes memory encoded = abi.encode(results);
        assembly {
            return(add(encoded, 32), mload(encoded))
        }
    }
}
