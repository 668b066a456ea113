# An injection attempt: the audit refuses it before anything runs (exit status 1).
# Even with the audit in report-only mode, the sandbox has no shell and no host to reach.
import subprocess

print(subprocess.run(["cat", "/etc/passwd"], capture_output=True).stdout)
