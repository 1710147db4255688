// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title VyperLayoutToken
/// @notice An ERC20 whose balances and allowances sit where a Vyper contract keeps its HashMaps:
/// `HashMap[k]` declared at slot `s` lives at keccak256(abi.encode(s, k)) (key last), unlike
/// Solidity's keccak256(abi.encode(k, s)). Balances at slot 2, allowances at slot 3. Devnets only:
/// it stands in for Vyper-compiled tokens (e.g. Curve LP tokens) in storage-layout probes.
contract VyperLayoutToken {
    uint256 private constant BALANCES = 2;
    uint256 private constant ALLOWANCES = 3;
    uint8 public constant decimals = 18;
    string public constant symbol = "VYP";
    string public constant name = "Vyper Layout Token";

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function _balanceSlot(address owner) private pure returns (bytes32) {
        return keccak256(abi.encode(BALANCES, owner));
    }

    function _allowanceSlot(address owner, address spender) private pure returns (bytes32) {
        return keccak256(abi.encode(keccak256(abi.encode(ALLOWANCES, owner)), spender));
    }

    function _load(bytes32 slot) private view returns (uint256 value) {
        assembly { value := sload(slot) }
    }

    function _store(bytes32 slot, uint256 value) private {
        assembly { sstore(slot, value) }
    }

    function balanceOf(address owner) external view returns (uint256) {
        return _load(_balanceSlot(owner));
    }

    function allowance(address owner, address spender) external view returns (uint256) {
        return _load(_allowanceSlot(owner, spender));
    }

    /// @notice Mints `amount` to `to`; anyone may call it.
    function mint(address to, uint256 amount) external {
        _store(_balanceSlot(to), _load(_balanceSlot(to)) + amount);
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        _store(_allowanceSlot(msg.sender, spender), amount);
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        bytes32 slot = _allowanceSlot(from, msg.sender);
        uint256 allowed = _load(slot);
        require(allowed >= amount, "allowance");
        _store(slot, allowed - amount);
        _move(from, to, amount);
        return true;
    }

    function _move(address from, address to, uint256 amount) private {
        uint256 balance = _load(_balanceSlot(from));
        require(balance >= amount, "balance");
        _store(_balanceSlot(from), balance - amount);
        _store(_balanceSlot(to), _load(_balanceSlot(to)) + amount);
        emit Transfer(from, to, amount);
    }
}
