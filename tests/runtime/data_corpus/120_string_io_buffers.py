import io

import numpy as np
import pandas as pd

buf = io.StringIO()
frame = pd.DataFrame(np.arange(9).reshape(3, 3), columns=list("xyz"))
frame.to_csv(buf, index=False)
csv_text = buf.getvalue()
print(repr(csv_text))
again = pd.read_csv(io.StringIO(csv_text))
print(again.sum().to_dict())
bbuf = io.BytesIO()
frame.to_csv(bbuf, index=False, encoding="utf-16")
print("utf-16 bytes:", len(bbuf.getvalue()), bbuf.getvalue()[:2])
bbuf.seek(0)
print(pd.read_csv(bbuf, encoding="utf-16").equals(frame))
txt = io.StringIO()
frame.to_string(txt)
print(txt.getvalue())
html = frame.head(1).to_html(index=False)
print(html.splitlines()[0], len(html.splitlines()), "lines of html")
