// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title PriceFeed
/// @notice Chainlink AggregatorV3-compatible feed whose answer is set by hand, for devnets only.
contract PriceFeed {
    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;

    uint80 internal _roundId;
    int256 internal _answer;
    uint256 internal _startedAt;
    uint256 internal _updatedAt;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    constructor(uint8 _decimals, string memory _description, int256 initialAnswer) {
        decimals = _decimals;
        description = _description;
        _setAnswer(initialAnswer);
    }

    /// @notice Starts a new round with `answer`, updated at the current block time.
    function setAnswer(int256 answer) external {
        _setAnswer(answer);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return (_roundId, _answer, _startedAt, _updatedAt, _roundId);
    }

    function latestAnswer() external view returns (int256) {
        return _answer;
    }

    function _setAnswer(int256 answer) internal {
        _roundId += 1;
        _answer = answer;
        _startedAt = block.timestamp;
        _updatedAt = block.timestamp;
        emit AnswerUpdated(answer, _roundId, block.timestamp);
    }
}
