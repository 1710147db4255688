// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import { TokenTransfers } from "./TokenTransfers.sol";

/// @notice Merkle root plus the (deprecated but still emitted) IPFS hash of the tree
///         (docs/contracts.md#distributor-structs).
struct MerkleTree {
    bytes32 merkleRoot;
    bytes32 ipfsHash;
}

/// @notice What a user already claimed of a token (docs/contracts.md#distributor-structs).
struct Claim {
    uint208 amount;
    uint48 timestamp;
    bytes32 merkleRoot;
}

/// @title Distributor (devnet stand-in)
/// @notice Minimal, non-upgradeable re-implementation of the production Distributor's root update and
///         claim logic (docs/contracts.md#devnet-stand-ins). The owner is the governor.
///      Disputes follow the real lifecycle (docs/contracts.md#distributor-functions, docs/contracts.md#dispute-period-and-the-live-root): `disputeTree` deposits `disputeAmount`
///      of `disputeToken` before `endOfDisputePeriod`; `resolveDispute(true)` refunds and revokes,
///      `resolveDispute(false)` keeps the deposit and restarts the period from now (no `TreeUpdated`).
///      Trusted updaters (`canUpdateMerkleRoot`) may update once the period is over; nobody while a
///      dispute is open. Claim rights: the user, `operators[user][caller | 0]`, `mainOperators[caller][token | 0]`,
///      governor or guardian (docs/contracts.md#distributor-functions).
/// @dev Not implemented: claim recipients, `claimWithRecipient`.
contract Distributor {
    using TokenTransfers for address;

    address public governor;
    MerkleTree public tree;
    MerkleTree public lastTree;
    /// @dev Time from which `tree` is live; before that `lastTree` is
    ///      (docs/contracts.md#dispute-period-and-the-live-root).
    uint48 public endOfDisputePeriod;
    /// @dev Counted in epochs of `getEpochDuration()` seconds.
    uint48 public disputePeriod;
    address public disputer;
    address public guardian;
    address public disputeToken;
    uint256 public disputeAmount;
    mapping(address => uint256) public canUpdateMerkleRoot;
    mapping(address => mapping(address => uint256)) public mainOperators;
    mapping(address => mapping(address => Claim)) public claimed;
    mapping(address => mapping(address => uint256)) public operators;
    uint32 internal _epochDuration = 3600;

    event TreeUpdated(bytes32 merkleRoot, bytes32 ipfsHash, uint48 endOfDisputePeriod);
    event Claimed(address indexed user, address indexed token, uint256 amount);
    event Revoked();
    event DisputePeriodUpdated(uint48 _disputePeriod);
    event EpochDurationUpdated(uint32 newEpochDuration);
    event OperatorToggled(address indexed user, address indexed operator, bool isWhitelisted);
    event Disputed(string reason);
    event DisputeResolved(bool valid);
    event DisputeTokenUpdated(address indexed _disputeToken);
    event DisputeAmountUpdated(uint256 _disputeAmount);
    event TrustedToggled(address indexed eoa, bool trust);
    event MainOperatorStatusUpdated(address indexed operator, address indexed token, bool isWhitelisted);

    error InvalidProof();
    error InvalidLengths();
    error InvalidUninitializedRoot();
    error InvalidParam();
    error NotGovernor();
    error NotWhitelisted();
    error NotTrusted();
    error InvalidDispute();
    error UnresolvedDispute();
    error NoDispute();

    modifier onlyGovernor() {
        if (msg.sender != governor) revert NotGovernor();
        _;
    }

    constructor() {
        governor = msg.sender;
    }

    /// @notice Publishes a new tree; the previous one stays live until the dispute period ends. The governor may
    ///         update at any time, a trusted address only once the period is over, nobody while a dispute is open.
    function updateTree(MerkleTree calldata _tree) external {
        if (
            disputer != address(0) ||
            ((canUpdateMerkleRoot[msg.sender] != 1 || block.timestamp < endOfDisputePeriod) && msg.sender != governor)
        ) revert NotTrusted();
        lastTree = tree;
        tree = _tree;
        uint48 end = _endOfDisputePeriod(block.timestamp);
        endOfDisputePeriod = end;
        emit TreeUpdated(_tree.merkleRoot, _tree.ipfsHash, end);
    }

    /// @notice Rolls `tree` back to `lastTree`, live immediately (docs/contracts.md#dispute-period-and-the-live-root).
    function revokeTree() external onlyGovernor {
        if (disputer != address(0)) revert UnresolvedDispute();
        _revokeTree();
    }

    /// @notice Disputes the pending tree: only before `endOfDisputePeriod`, one dispute at a time; pulls the deposit.
    function disputeTree(string calldata reason) external {
        if (disputer != address(0)) revert UnresolvedDispute();
        if (block.timestamp >= endOfDisputePeriod) revert InvalidDispute();
        disputeToken.safeTransferFrom(msg.sender, address(this), disputeAmount);
        disputer = msg.sender;
        emit Disputed(reason);
    }

    /// @notice Governor. Valid: refund the disputer and revoke the tree. Invalid: the deposit goes to the governor
    ///         and `endOfDisputePeriod` is recomputed from now; no `TreeUpdated` (docs/contracts.md#dispute-period-and-the-live-root).
    function resolveDispute(bool valid) external onlyGovernor {
        if (disputer == address(0)) revert NoDispute();
        if (valid) {
            disputeToken.safeTransfer(disputer, disputeAmount);
            _revokeTree();
        } else {
            disputeToken.safeTransfer(msg.sender, disputeAmount);
            endOfDisputePeriod = _endOfDisputePeriod(block.timestamp);
        }
        disputer = address(0);
        emit DisputeResolved(valid);
    }

    function _revokeTree() internal {
        MerkleTree memory previous = lastTree;
        tree = previous;
        endOfDisputePeriod = 0;
        emit Revoked();
        emit TreeUpdated(previous.merkleRoot, previous.ipfsHash, uint48((block.timestamp / _epochDuration) * _epochDuration));
    }

    /// @notice Claims `amounts[i]` (cumulative) of `tokens[i]` for `users[i]`, paying what was not claimed yet.
    function claim(address[] calldata users, address[] calldata tokens, uint256[] calldata amounts, bytes32[][] calldata proofs) external {
        uint256 n = users.length;
        if (n == 0 || n != tokens.length || n != amounts.length || n != proofs.length) revert InvalidLengths();
        bytes32 root = getMerkleRoot();
        if (root == bytes32(0)) revert InvalidUninitializedRoot();
        for (uint256 i; i < n; ++i) {
            address user = users[i];
            address token = tokens[i];
            if (
                msg.sender != user &&
                tx.origin != user &&
                operators[user][msg.sender] == 0 &&
                operators[user][address(0)] == 0 &&
                mainOperators[msg.sender][token] == 0 &&
                mainOperators[msg.sender][address(0)] == 0 &&
                msg.sender != governor &&
                msg.sender != guardian
            ) revert NotWhitelisted();
            bytes32 leaf = keccak256(abi.encode(user, token, amounts[i]));
            if (_processProof(leaf, proofs[i]) != root) revert InvalidProof();

            uint256 toSend = amounts[i] - claimed[user][token].amount;
            claimed[user][token] = Claim(uint208(amounts[i]), uint48(block.timestamp), root);
            if (toSend != 0) token.safeTransfer(user, toSend);
            emit Claimed(user, token, toSend);
        }
    }

    /// @notice The live root: `tree` once its dispute period is over and no dispute is open, else `lastTree`.
    function getMerkleRoot() public view returns (bytes32) {
        if (block.timestamp >= endOfDisputePeriod && disputer == address(0)) return tree.merkleRoot;
        return lastTree.merkleRoot;
    }

    function getEpochDuration() external view returns (uint32) {
        return _epochDuration;
    }

    function toggleOperator(address user, address operator) external {
        if (msg.sender != user && msg.sender != governor && msg.sender != guardian && canUpdateMerkleRoot[msg.sender] != 1) revert NotWhitelisted();
        uint256 status = 1 - operators[user][operator];
        operators[user][operator] = status;
        emit OperatorToggled(user, operator, status == 1);
    }

    /// @notice Governor: lets `operator` claim for every user, for `token` (or every token when `token = 0`).
    function toggleMainOperatorStatus(address operator, address token) external onlyGovernor {
        uint256 status = 1 - mainOperators[operator][token];
        mainOperators[operator][token] = status;
        emit MainOperatorStatusUpdated(operator, token, status == 1);
    }

    /// @notice Governor: a trusted address may update the tree once the dispute period is over.
    function toggleTrusted(address eoa) external onlyGovernor {
        uint256 trust = 1 - canUpdateMerkleRoot[eoa];
        canUpdateMerkleRoot[eoa] = trust;
        emit TrustedToggled(eoa, trust == 1);
    }

    /// @notice The real Distributor asks an AccessControlManager for roles; the stand-in is its own, with the same
    ///         getters, so readers use one code path for both (docs/contracts.md#distributor-functions, claim rules).
    function accessControlManager() external view returns (address) {
        return address(this);
    }

    function isGovernor(address account) external view returns (bool) {
        return account == governor;
    }

    function isGovernorOrGuardian(address account) external view returns (bool) {
        return account == governor || account == guardian;
    }

    /// @notice Governor: the guardian may claim for anyone (as in the real AccessControlManager).
    function setGuardian(address _guardian) external onlyGovernor {
        guardian = _guardian;
    }

    function setDisputeToken(address _disputeToken) external onlyGovernor {
        if (disputer != address(0)) revert UnresolvedDispute();
        disputeToken = _disputeToken;
        emit DisputeTokenUpdated(_disputeToken);
    }

    function setDisputeAmount(uint256 _disputeAmount) external onlyGovernor {
        if (disputer != address(0)) revert UnresolvedDispute();
        disputeAmount = _disputeAmount;
        emit DisputeAmountUpdated(_disputeAmount);
    }

    function setDisputePeriod(uint48 _disputePeriod) external onlyGovernor {
        disputePeriod = _disputePeriod;
        emit DisputePeriodUpdated(_disputePeriod);
    }

    function setEpochDuration(uint32 epochDuration) external onlyGovernor {
        if (epochDuration == 0) revert InvalidParam();
        _epochDuration = epochDuration;
        emit EpochDurationUpdated(epochDuration);
    }

    /// @dev `(floor((t-1)/E) + 1 + P) * E`: round t up to an epoch boundary, then add P epochs
    ///      (docs/contracts.md#dispute-period-and-the-live-root).
    function _endOfDisputePeriod(uint256 t) internal view returns (uint48) {
        uint256 e = _epochDuration;
        return uint48(((t - 1) / e + 1 + disputePeriod) * e);
    }

    /// @dev Sorted-pair hashing, as built by merkletreejs with sortPairs (docs/contracts.md#reward-tree).
    function _processProof(bytes32 leaf, bytes32[] calldata proof) internal pure returns (bytes32 h) {
        h = leaf;
        for (uint256 i; i < proof.length; ++i) {
            bytes32 p = proof[i];
            h = h < p ? keccak256(abi.encodePacked(h, p)) : keccak256(abi.encodePacked(p, h));
        }
    }
}
