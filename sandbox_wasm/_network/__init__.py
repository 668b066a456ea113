"""Network by permission: HTTP(S) requests the host makes on the guest's behalf, only to
what the caller's policy allows (the guest never has a socket).

- `policy.py`: NetworkRule, NetworkPolicy (rules, listed private addresses, budgets) and
  what `network=` accepts.
- `fetch.py`: the host's request: DNS, the address check, a connection to the checked
  address, TLS, the response within its caps, before the deadline.
- `channel.py`: one run's side of the guest's network channel, and its records.
"""
