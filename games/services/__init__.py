"""Services own the transaction: each loads rows, calls the pure engine and saves the result."""
