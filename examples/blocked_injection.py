# An injection attempt: the classic Python sandbox escape, a walk from any object to every
# class, looking for a function whose globals hold `os`. The audit refuses it before
# anything runs (exit status 1). Even with the audit in report-only mode, the sandbox has no
# shell and no host to reach: `os` there works on the guest's own in-memory tree.
for cls in ().__class__.__base__.__subclasses__():
    globals_of_init = getattr(cls.__init__, "__globals__", {})
    if "os" in globals_of_init:
        print(globals_of_init["os"].popen("cat /etc/passwd").read())
        break
