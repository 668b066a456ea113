# A runaway loop: the wall-clock deadline stops it (status timeout, exit status 124).
# Try: wasm-exec --profile fast_1s examples/infinite_loop.py
count = 0
while True:
    count += 1
