# An injection attempt: the audit refuses it before anything runs (exit status 1).
# Even with the audit in report-only mode, the sandbox has no host files to open.
print(open("/etc/passwd").read())  # noqa: SIM115
