// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title An ERC-20 that attacks whoever moves it (tests only)
/// @notice Once armed, every transfer of this token calls `target` with `data` before moving the
/// balance, as a malicious token re-entering a contract mid-swap would, and records how that call
/// ended. The transfer itself goes on either way, so the outer call shows whether re-entry got in.
contract HostileToken is ERC20 {
    address public target;
    bytes public data;
    bool public attacking;
    uint256 public attempts;
    bool public lastSucceeded;
    bytes public lastReturnData;

    constructor() ERC20("Hostile", "HOST") {
        _mint(msg.sender, 1_000_000_000 ether);
    }

    function arm(address target_, bytes calldata data_) external {
        target = target_;
        data = data_;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (target != address(0) && !attacking) {
            attacking = true;
            attempts += 1;
            (lastSucceeded, lastReturnData) = target.call(data);
            attacking = false;
        }
        super._update(from, to, value);
    }
}
