# Print JSON as the last line: the result's `result_json` field holds it parsed.
# Try: wasm-exec --json examples/json_result.py
import json
import statistics

samples = [2.5, 3.1, 4.7, 3.9, 5.2]
print("computing summary statistics...")
print(json.dumps({"mean": statistics.mean(samples), "stdev": round(statistics.stdev(samples), 4)}))
