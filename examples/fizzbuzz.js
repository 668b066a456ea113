// JavaScript runs under QuickJS-ng in the same sandbox: wasm-exec examples/fizzbuzz.js
const out = [];
for (let i = 1; i <= 15; i++) {
  out.push(i % 15 === 0 ? "FizzBuzz" : i % 3 === 0 ? "Fizz" : i % 5 === 0 ? "Buzz" : String(i));
}
console.log(out.join(" "));
console.log(JSON.stringify({ count: out.length, last: out[out.length - 1] }));
