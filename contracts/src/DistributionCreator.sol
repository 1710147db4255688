// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import { TokenTransfers } from "./TokenTransfers.sol";

/// @notice Campaign as passed to `createCampaign` and emitted in `NewCampaign` (docs/contracts.md#campaignparameters).
/// @dev Field order is part of the ABI (tuple `(bytes32,address,address,uint256,uint32,uint32,uint32,bytes)`).
struct CampaignParameters {
    bytes32 campaignId;
    address creator;
    address rewardToken;
    uint256 amount;
    uint32 campaignType;
    uint32 startTimestamp;
    uint32 duration;
    bytes campaignData;
}

/// @notice `(token, minimumAmountPerHour)` pair returned by `getValidRewardTokens`
///         (docs/contracts.md#reward-token-minimum-amounts).
struct RewardTokenAmounts {
    address token;
    uint256 minimumAmountPerEpoch;
}

/// @title DistributionCreator (devnet stand-in)
/// @notice Minimal, non-upgradeable re-implementation of the public interface of the production
///         DistributionCreator (docs/contracts.md#devnet-stand-ins). Access control is a single owner acting as
///         governor.
/// @dev Not implemented: predeposited balances, creator allowances, signatures (`messageHash` stays 0
///      unless `setMessage` is called, so `hasSigned` passes for everyone as in production).
contract DistributionCreator {
    using TokenTransfers for address;

    uint32 public constant HOUR = 3600;
    uint256 public constant BASE_9 = 1e9;
    uint256 public immutable CHAIN_ID = block.chainid;

    address public governor;
    address public distributor;
    address public feeRecipient;
    uint256 public defaultFees;
    string public message;
    bytes32 public messageHash;

    mapping(address => uint256) public feeRebate;
    mapping(address => bytes32) public userSignatures;
    mapping(address => uint256) public userSignatureWhitelist;
    /// @dev Minimum amount per hour in base units; 0 means "not whitelisted".
    mapping(address => uint256) public rewardTokenMinAmounts;
    /// @dev Appended on every 0 -> non-zero transition, so a re-added token appears twice.
    address[] public rewardTokens;
    CampaignParameters[] public campaignList;
    /// @dev Index in `campaignList` plus one; 0 means the campaign does not exist.
    mapping(bytes32 => uint256) internal _campaignLookup;
    mapping(uint32 => uint256) public campaignSpecificFees;
    mapping(bytes32 => CampaignParameters) public campaignOverrides;
    mapping(bytes32 => uint256[]) public campaignOverridesTimestamp;
    mapping(bytes32 => mapping(address => address)) public campaignReallocation;
    mapping(bytes32 => address[]) public campaignListReallocation;
    mapping(address => mapping(address => uint256)) public campaignOperators;

    uint256 private _locked = 1;

    event NewCampaign(CampaignParameters campaign);
    event CampaignOverride(bytes32 _campaignId, CampaignParameters campaign);
    event CampaignReallocation(bytes32 _campaignId, address[] from, address indexed to);
    event CampaignSpecificFeesSet(uint32 campaignType, uint256 _fees);
    event RewardTokenMinimumAmountUpdated(address indexed token, uint256 amount);
    event FeesSet(uint256 _fees);
    event FeeRebateUpdated(address indexed user, uint256 userFeeRebate);
    event FeeRecipientUpdated(address indexed _feeRecipient);
    event DistributorUpdated(address indexed _distributor);
    event MessageUpdated(bytes32 _messageHash);
    event ConditionsAccepted(address indexed user, bytes32 conditionsHash);
    event CampaignOperatorToggled(address indexed user, address indexed operator, bool isWhitelisted);

    error CampaignDurationNull();
    error CampaignRewardTokenNotWhitelisted();
    error CampaignRewardTooLow();
    error CampaignAlreadyExists();
    error CampaignDoesNotExist();
    error InvalidOverride();
    error InvalidReallocation();
    error InvalidLengths();
    error InvalidParam();
    error ZeroAddress();
    error NotGovernor();
    error NotSigned();
    error OperatorNotAllowed();
    error ReentrantCall();

    modifier onlyGovernor() {
        if (msg.sender != governor) revert NotGovernor();
        _;
    }

    modifier nonReentrant() {
        if (_locked != 1) revert ReentrantCall();
        _locked = 2;
        _;
        _locked = 1;
    }

    modifier hasSigned() {
        if (
            userSignatureWhitelist[msg.sender] == 0 &&
            userSignatureWhitelist[tx.origin] == 0 &&
            userSignatures[msg.sender] != messageHash &&
            userSignatures[tx.origin] != messageHash
        ) revert NotSigned();
        _;
    }

    /// @param _distributor Receives the net amount of every campaign.
    /// @param _defaultFees Fee rate in base 1e9 (3e7 = 3%); must be < 1e9.
    constructor(address _distributor, uint256 _defaultFees) {
        if (_distributor == address(0)) revert ZeroAddress();
        if (_defaultFees >= BASE_9) revert InvalidParam();
        governor = msg.sender;
        distributor = _distributor;
        defaultFees = _defaultFees;
    }

    // ------------------------------------------------------------------ campaigns

    function createCampaign(CampaignParameters memory newCampaign) external nonReentrant hasSigned returns (bytes32) {
        return _createCampaign(newCampaign);
    }

    function createCampaigns(CampaignParameters[] memory campaigns) external nonReentrant hasSigned returns (bytes32[] memory ids) {
        ids = new bytes32[](campaigns.length);
        for (uint256 i; i < campaigns.length; ++i) ids[i] = _createCampaign(campaigns[i]);
    }

    /// @notice Records that the caller accepted the current conditions (docs/contracts.md#creating-campaigns).
    function acceptConditions() external {
        userSignatures[msg.sender] = messageHash;
        emit ConditionsAccepted(msg.sender, messageHash);
    }

    /// @notice Replaces the mutable parameters of a campaign (docs/contracts.md#overrides-and-reallocations).
    /// @dev campaignId, creator, rewardToken and amount are forced to the original values.
    function overrideCampaign(bytes32 _campaignId, CampaignParameters memory newCampaign) external {
        CampaignParameters memory original = campaign(_campaignId);
        _checkOperator(original.creator);
        CampaignParameters memory latest = getLatestCampaignParams(_campaignId);
        if (newCampaign.startTimestamp != latest.startTimestamp && block.timestamp > latest.startTimestamp) revert InvalidOverride();
        if (original.amount * HOUR < rewardTokenMinAmounts[original.rewardToken] * newCampaign.duration) revert InvalidOverride();

        newCampaign.campaignId = _campaignId;
        newCampaign.creator = original.creator;
        newCampaign.rewardToken = original.rewardToken;
        newCampaign.amount = original.amount;
        campaignOverrides[_campaignId] = newCampaign;
        campaignOverridesTimestamp[_campaignId].push(block.timestamp);
        emit CampaignOverride(_campaignId, newCampaign);
    }

    /// @notice Reallocates the unclaimed rewards of `froms` to `to` once the campaign has ended
    ///         (docs/contracts.md#overrides-and-reallocations).
    function reallocateCampaignRewards(bytes32 _campaignId, address[] memory froms, address to) external {
        CampaignParameters memory original = campaign(_campaignId);
        _checkOperator(original.creator);
        if (to == address(0)) revert ZeroAddress();
        CampaignParameters memory latest = getLatestCampaignParams(_campaignId);
        if (block.timestamp < uint256(latest.startTimestamp) + latest.duration) revert InvalidReallocation();
        for (uint256 i; i < froms.length; ++i) {
            campaignReallocation[_campaignId][froms[i]] = to;
            campaignListReallocation[_campaignId].push(froms[i]);
        }
        emit CampaignReallocation(_campaignId, froms, to);
    }

    /// @notice Lets `operator` override and reallocate the campaigns of `user` (and back).
    function toggleCampaignOperator(address user, address operator) external {
        if (msg.sender != user && msg.sender != governor) revert OperatorNotAllowed();
        uint256 status = 1 - campaignOperators[user][operator];
        campaignOperators[user][operator] = status;
        emit CampaignOperatorToggled(user, operator, status == 1);
    }

    // ------------------------------------------------------------------ views

    /// @notice campaignId as in docs/contracts.md#campaign-id; the incoming campaignId and amount are not hashed.
    function campaignId(CampaignParameters memory campaignData) public view returns (bytes32) {
        return
            keccak256(
                abi.encodePacked(
                    CHAIN_ID,
                    campaignData.creator,
                    campaignData.rewardToken,
                    campaignData.campaignType,
                    campaignData.startTimestamp,
                    campaignData.duration,
                    campaignData.campaignData
                )
            );
    }

    function campaignLookup(bytes32 _campaignId) public view returns (uint256) {
        uint256 index = _campaignLookup[_campaignId];
        if (index == 0) revert CampaignDoesNotExist();
        return index - 1;
    }

    function campaign(bytes32 _campaignId) public view returns (CampaignParameters memory) {
        return campaignList[campaignLookup(_campaignId)];
    }

    function getLatestCampaignParams(bytes32 _campaignId) public view returns (CampaignParameters memory) {
        if (campaignOverridesTimestamp[_campaignId].length == 0) return campaign(_campaignId);
        return campaignOverrides[_campaignId];
    }

    function getCampaignOverridesTimestamp(bytes32 _campaignId) external view returns (uint256[] memory) {
        return campaignOverridesTimestamp[_campaignId];
    }

    function getCampaignListReallocation(bytes32 _campaignId) external view returns (address[] memory) {
        return campaignListReallocation[_campaignId];
    }

    function campaignListLength() external view returns (uint256) {
        return campaignList.length;
    }

    function getValidRewardTokens() external view returns (RewardTokenAmounts[] memory tokens) {
        uint256 count;
        tokens = new RewardTokenAmounts[](rewardTokens.length);
        for (uint256 i; i < rewardTokens.length; ++i) {
            address token = rewardTokens[i];
            uint256 minAmount = rewardTokenMinAmounts[token];
            if (minAmount == 0 || _seenBefore(token, i)) continue;
            tokens[count++] = RewardTokenAmounts(token, minAmount);
        }
        assembly {
            mstore(tokens, count)
        }
    }

    // ------------------------------------------------------------------ governance

    /// @notice Sets per-hour minimums; 0 de-whitelists a token (docs/contracts.md#reward-token-minimum-amounts).
    function setRewardTokenMinAmounts(address[] calldata tokens, uint256[] calldata amounts) external onlyGovernor {
        if (tokens.length != amounts.length) revert InvalidLengths();
        for (uint256 i; i < tokens.length; ++i) {
            if (rewardTokenMinAmounts[tokens[i]] == 0 && amounts[i] != 0) rewardTokens.push(tokens[i]);
            rewardTokenMinAmounts[tokens[i]] = amounts[i];
            emit RewardTokenMinimumAmountUpdated(tokens[i], amounts[i]);
        }
    }

    function setFees(uint256 _defaultFees) external onlyGovernor {
        if (_defaultFees >= BASE_9) revert InvalidParam();
        defaultFees = _defaultFees;
        emit FeesSet(_defaultFees);
    }

    /// @notice Per-type fee: 0 = use defaultFees, 1 = no fee, otherwise the rate in base 1e9.
    function setCampaignFees(uint32 campaignType, uint256 _fees) external onlyGovernor {
        if (_fees >= BASE_9) revert InvalidParam();
        campaignSpecificFees[campaignType] = _fees;
        emit CampaignSpecificFeesSet(campaignType, _fees);
    }

    function setUserFeeRebate(address user, uint256 userFeeRebate) external onlyGovernor {
        if (userFeeRebate > BASE_9) revert InvalidParam();
        feeRebate[user] = userFeeRebate;
        emit FeeRebateUpdated(user, userFeeRebate);
    }

    function setFeeRecipient(address _feeRecipient) external onlyGovernor {
        feeRecipient = _feeRecipient;
        emit FeeRecipientUpdated(_feeRecipient);
    }

    function setNewDistributor(address _distributor) external onlyGovernor {
        if (_distributor == address(0)) revert ZeroAddress();
        distributor = _distributor;
        emit DistributorUpdated(_distributor);
    }

    function setMessage(string calldata _message) external onlyGovernor {
        message = _message;
        bytes32 hash = bytes(_message).length == 0 ? bytes32(0) : _ethSignedMessageHash(bytes(_message));
        messageHash = hash;
        emit MessageUpdated(hash);
    }

    function toggleSigningWhitelist(address user) external onlyGovernor {
        userSignatureWhitelist[user] = 1 - userSignatureWhitelist[user];
    }

    // ------------------------------------------------------------------ internals

    /// @dev Steps of docs/contracts.md#creating-campaigns: checks on the gross amount, creator substitution, id,
    ///      funding, event.
    function _createCampaign(CampaignParameters memory newCampaign) internal returns (bytes32) {
        uint256 minPerHour = rewardTokenMinAmounts[newCampaign.rewardToken];
        if (newCampaign.duration < 1) revert CampaignDurationNull();
        if (minPerHour == 0) revert CampaignRewardTokenNotWhitelisted();
        if (newCampaign.amount * HOUR < minPerHour * newCampaign.duration) revert CampaignRewardTooLow();

        uint256 gross = newCampaign.amount;
        uint256 net = _netAmount(gross, newCampaign.campaignType);
        if (newCampaign.creator == address(0)) newCampaign.creator = msg.sender;
        newCampaign.amount = net;
        bytes32 id = campaignId(newCampaign);
        if (_campaignLookup[id] != 0) revert CampaignAlreadyExists();
        newCampaign.campaignId = id;
        campaignList.push(newCampaign);
        _campaignLookup[id] = campaignList.length;

        if (gross > net) {
            address recipient = feeRecipient == address(0) ? address(this) : feeRecipient;
            newCampaign.rewardToken.safeTransferFrom(msg.sender, recipient, gross - net);
        }
        newCampaign.rewardToken.safeTransferFrom(msg.sender, distributor, net);
        emit NewCampaign(newCampaign);
        return id;
    }

    /// @dev Fee rate for the type, reduced by the caller's rebate; rounds the net amount down
    ///      (docs/contracts.md#fees-and-rebates).
    function _netAmount(uint256 amount, uint32 campaignType) internal view returns (uint256) {
        uint256 baseFees = campaignSpecificFees[campaignType];
        if (baseFees == 1) baseFees = 0;
        else if (baseFees == 0) baseFees = defaultFees;
        uint256 fees = (baseFees * (BASE_9 - feeRebate[msg.sender])) / BASE_9;
        return fees == 0 ? amount : (amount * (BASE_9 - fees)) / BASE_9;
    }

    function _checkOperator(address creator) internal view {
        if (msg.sender != creator && campaignOperators[creator][msg.sender] == 0 && msg.sender != governor) revert OperatorNotAllowed();
    }

    function _seenBefore(address token, uint256 index) internal view returns (bool) {
        for (uint256 j; j < index; ++j) if (rewardTokens[j] == token) return true;
        return false;
    }

    function _ethSignedMessageHash(bytes memory data) internal pure returns (bytes32) {
        return keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n", _toString(data.length), data));
    }

    function _toString(uint256 value) internal pure returns (string memory) {
        if (value == 0) return "0";
        uint256 digits;
        for (uint256 v = value; v != 0; v /= 10) ++digits;
        bytes memory buffer = new bytes(digits);
        for (; value != 0; value /= 10) buffer[--digits] = bytes1(uint8(48 + (value % 10)));
        return string(buffer);
    }
}
