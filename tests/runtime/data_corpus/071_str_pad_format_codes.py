import pandas as pd

codes = pd.Series(["7", "42", "1234", "99x", "", None, "0815"], dtype="string")
print(codes.str.isdigit().tolist())
valid = codes[codes.str.fullmatch(r"\d+").fillna(False)]
print("zero padded:", valid.str.zfill(6).tolist())
print("padded right:", valid.str.pad(6, side="right", fillchar="_").tolist())
print("centered:", [f"[{s}]" for s in valid.str.center(8, "*")])
skus = pd.Series(["ab-001-red", "CD-017-Blue", "ef-120-GREEN", "gh-9-black"])
split = skus.str.upper().str.split("-", expand=True)
split.columns = ["prefix", "num", "color"]
split["num"] = split["num"].str.zfill(4)
split["sku"] = split["prefix"].str.cat([split["num"], split["color"].str[:3]], sep="/")
print(split)
print("title case:", skus.str.title().tolist())
print("swapcase:", skus.str.swapcase().tolist()[:2])
print("len:", skus.str.len().tolist())
