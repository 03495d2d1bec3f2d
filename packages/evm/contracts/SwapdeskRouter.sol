// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// The subset of a Uniswap V2 router this contract swaps through.
interface IUniswapV2Router {
    function swapExactTokensForTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external returns (uint256[] memory amounts);
}

/// Wrapped ether: native ETH in and out of the swaps goes through it.
interface IWETH {
    function deposit() external payable;
    function withdraw(uint256 amount) external;
}

/// @title swapdesk's swap and limit-order contract
/// @notice One transaction per trade: takes `amountIn` from the wallet, swaps it through the
/// configured Uniswap V2 router, pays the platform fee (0.25% of the gross output, rounded up) in
/// `tokenOut` to the fee recipient and delivers the rest to the wallet, or reverts with
/// `SlippageExceeded` when the wallet would receive less than its minimum. Limit orders are the
/// same swap on a maker's EIP-712 signed order, sent only by the executor. The threat review is in
/// docs/security.md ("The swap and limit-order contract").
contract SwapdeskRouter is EIP712, Ownable2Step, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// A limit order as the maker signs it (EIP-712 primary type `Order`).
    struct Order {
        string id;
        address maker;
        address tokenIn;
        address tokenOut;
        uint256 amountIn;
        uint256 minAmountOut;
        uint256 expiresAt;
    }

    /// What became of a signed order on this contract.
    enum OrderStatus {
        Open,
        Filled,
        Cancelled
    }

    /// The address that stands for native ETH as `tokenIn` or `tokenOut`.
    address public constant NATIVE = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;
    /// The platform fee in basis points of the gross output.
    uint256 public constant FEE_BPS = 25;
    uint256 private constant BPS = 10_000;
    bytes32 public constant ORDER_TYPEHASH = keccak256(
        "Order(string id,address maker,address tokenIn,address tokenOut,uint256 amountIn,uint256 minAmountOut,uint256 expiresAt)"
    );

    /// The Uniswap V2 router every swap goes through.
    IUniswapV2Router public immutable router;
    /// The wrapped ether the router trades in place of ETH.
    IWETH public immutable weth;
    /// The only account that may fill limit orders.
    address public executor;
    /// Where the platform fee goes.
    address public feeRecipient;
    /// Each signed order's state, by its EIP-712 digest.
    mapping(bytes32 orderHash => OrderStatus) public orderStatus;

    /// Every swap, a trade's or an order fill's: the amounts actually moved.
    event Swapped(
        address indexed wallet,
        address indexed tokenIn,
        address indexed tokenOut,
        uint256 amountIn,
        uint256 grossOut,
        uint256 fee,
        uint256 amountOut
    );
    /// A limit order filled (its `Swapped` is in the same transaction).
    event OrderFilled(bytes32 indexed orderHash, address indexed maker, string id);
    /// A limit order cancelled on chain, by its maker or by the executor on the maker's behalf.
    event OrderCancelled(bytes32 indexed orderHash, address indexed maker, address canceller);
    event ExecutorChanged(address indexed previousExecutor, address indexed newExecutor);
    event FeeRecipientChanged(address indexed previousRecipient, address indexed newRecipient);

    /// The wallet would receive less than its minimum: the swap is undone.
    error SlippageExceeded(uint256 amountOut, uint256 minAmountOut);
    /// The trade's deadline has passed.
    error DeadlineExpired(uint256 deadline);
    /// The order's `expiresAt` has come.
    error OrderExpired(uint256 expiresAt);
    /// The signature does not recover to the order's maker for this chain and contract.
    error InvalidSignature();
    error OrderAlreadyFilled(bytes32 orderHash);
    error OrderAlreadyCancelled(bytes32 orderHash);
    error NotExecutor(address caller);
    error NotMakerOrExecutor(address caller);
    /// The path does not run from `tokenIn` to `tokenOut` (WETH standing for ETH), or they are the same.
    error InvalidPath();
    error ZeroAmount();
    error ZeroAddress();
    /// `msg.value` is not `amountIn` for an ETH swap, or not zero for a token swap.
    error InvalidValue(uint256 value);
    /// A limit order cannot take native ETH from its maker: ETH needs no allowance to take.
    error NativeInputUnsupported();
    /// Only WETH sends ETH here (when unwrapping).
    error UnexpectedEther(address sender);

    modifier onlyExecutor() {
        if (msg.sender != executor) revert NotExecutor(msg.sender);
        _;
    }

    constructor(IUniswapV2Router router_, IWETH weth_, address executor_, address feeRecipient_, address owner_)
        EIP712("swapdesk", "1")
        Ownable(owner_)
    {
        if (
            address(router_) == address(0) || address(weth_) == address(0) || executor_ == address(0)
                || feeRecipient_ == address(0)
        ) revert ZeroAddress();
        router = router_;
        weth = weth_;
        executor = executor_;
        feeRecipient = feeRecipient_;
        emit ExecutorChanged(address(0), executor_);
        emit FeeRecipientChanged(address(0), feeRecipient_);
    }

    /// @notice Swaps `amountIn` of `tokenIn` from the caller along `path`; the caller receives at
    /// least `minAmountOut` of `tokenOut` after the fee, or the whole transaction reverts.
    /// @param path the router's path, from `tokenIn` to `tokenOut` (WETH where either is ETH).
    /// @return amountOut what the caller received.
    function swap(
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 minAmountOut,
        address[] calldata path,
        uint256 deadline
    ) external payable nonReentrant returns (uint256 amountOut) {
        if (block.timestamp > deadline) revert DeadlineExpired(deadline);
        if (tokenIn == NATIVE) {
            if (msg.value != amountIn) revert InvalidValue(msg.value);
        } else if (msg.value != 0) {
            revert InvalidValue(msg.value);
        }
        amountOut = _swap(msg.sender, tokenIn, tokenOut, amountIn, minAmountOut, path);
    }

    /// @notice Fills a maker's signed limit order at once, in full: only the executor may, only
    /// while it is open and unexpired, and only when the maker receives at least its minimum.
    /// @return amountOut what the maker received.
    function fillOrder(Order calldata order, bytes calldata signature, address[] calldata path)
        external
        nonReentrant
        onlyExecutor
        returns (uint256 amountOut)
    {
        if (order.tokenIn == NATIVE) revert NativeInputUnsupported();
        if (order.expiresAt != 0 && block.timestamp >= order.expiresAt) revert OrderExpired(order.expiresAt);
        bytes32 digest = hashOrder(order);
        _requireOpen(digest);
        if (ECDSA.recover(digest, signature) != order.maker) revert InvalidSignature();
        orderStatus[digest] = OrderStatus.Filled;
        emit OrderFilled(digest, order.maker, order.id);
        amountOut = _swap(order.maker, order.tokenIn, order.tokenOut, order.amountIn, order.minAmountOut, path);
    }

    /// @notice Cancels an order for good: its maker may, and so may the executor on the maker's
    /// behalf (a cancelled order can then never be filled, whoever holds the executor key later).
    function cancelOrder(Order calldata order) external {
        if (msg.sender != order.maker && msg.sender != executor) revert NotMakerOrExecutor(msg.sender);
        bytes32 digest = hashOrder(order);
        _requireOpen(digest);
        orderStatus[digest] = OrderStatus.Cancelled;
        emit OrderCancelled(digest, order.maker, msg.sender);
    }

    /// @notice Rotates the executor key (a leaked key is replaced without redeploying).
    function setExecutor(address executor_) external onlyOwner {
        if (executor_ == address(0)) revert ZeroAddress();
        emit ExecutorChanged(executor, executor_);
        executor = executor_;
    }

    /// @notice Changes where the platform fee goes.
    function setFeeRecipient(address feeRecipient_) external onlyOwner {
        if (feeRecipient_ == address(0)) revert ZeroAddress();
        emit FeeRecipientChanged(feeRecipient, feeRecipient_);
        feeRecipient = feeRecipient_;
    }

    /// @notice The EIP-712 digest of an order on this chain and contract: what the maker signs, and
    /// the key of its status.
    function hashOrder(Order calldata order) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(
                    ORDER_TYPEHASH,
                    keccak256(bytes(order.id)),
                    order.maker,
                    order.tokenIn,
                    order.tokenOut,
                    order.amountIn,
                    order.minAmountOut,
                    order.expiresAt
                )
            )
        );
    }

    /// @notice The platform fee on a gross output: 0.25%, rounded up to the base unit.
    function feeOf(uint256 grossOut) public pure returns (uint256) {
        return Math.mulDiv(grossOut, FEE_BPS, BPS, Math.Rounding.Ceil);
    }

    /// Only WETH's `withdraw` sends ETH here; anything else would be stranded.
    receive() external payable {
        if (msg.sender != address(weth)) revert UnexpectedEther(msg.sender);
    }

    function _requireOpen(bytes32 digest) private view {
        OrderStatus status = orderStatus[digest];
        if (status == OrderStatus.Filled) revert OrderAlreadyFilled(digest);
        if (status == OrderStatus.Cancelled) revert OrderAlreadyCancelled(digest);
    }

    /// Takes `amountIn` from `wallet` (or wraps the ETH sent), swaps it to this contract, measures
    /// what arrived, pays the fee and delivers the rest to `wallet`.
    function _swap(
        address wallet,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 minAmountOut,
        address[] calldata path
    ) private returns (uint256 amountOut) {
        if (amountIn == 0) revert ZeroAmount();
        address swapIn = tokenIn == NATIVE ? address(weth) : tokenIn;
        address swapOut = tokenOut == NATIVE ? address(weth) : tokenOut;
        // Same token in and out (ETH and WETH included) is no swap, and its output could not be told
        // apart from the input by the balance measured below.
        if (swapIn == swapOut || path.length < 2 || path[0] != swapIn || path[path.length - 1] != swapOut) {
            revert InvalidPath();
        }

        if (tokenIn == NATIVE) {
            weth.deposit{value: amountIn}();
        } else {
            IERC20(tokenIn).safeTransferFrom(wallet, address(this), amountIn);
        }
        IERC20(swapIn).forceApprove(address(router), amountIn);
        uint256 before = IERC20(swapOut).balanceOf(address(this));
        // The minimum is checked below on the net output, with this contract's own error.
        router.swapExactTokensForTokens(amountIn, 0, path, address(this), block.timestamp);
        uint256 grossOut = IERC20(swapOut).balanceOf(address(this)) - before;

        uint256 fee = feeOf(grossOut);
        amountOut = grossOut - fee;
        if (amountOut < minAmountOut) revert SlippageExceeded(amountOut, minAmountOut);

        if (tokenOut == NATIVE) {
            weth.withdraw(grossOut);
            Address.sendValue(payable(feeRecipient), fee);
            Address.sendValue(payable(wallet), amountOut);
        } else {
            IERC20(tokenOut).safeTransfer(feeRecipient, fee);
            IERC20(tokenOut).safeTransfer(wallet, amountOut);
        }
        emit Swapped(wallet, tokenIn, tokenOut, amountIn, grossOut, fee, amountOut);
    }
}
