// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title PlenumToken
/// @notice Test token for Plenum's plain `erc20` standard (weights are `balanceOf` at a block):
/// OpenZeppelin 5 ERC20, 18 decimals, no vote checkpoints. Only the deployer mints.
contract PlenumToken is ERC20, Ownable {
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) Ownable(msg.sender) {}

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
