"""Take a run out of the playground: a `trl grpo` recipe, a standalone script, the adapter, a merged model.

All of it is derived from the run spec (`playground.spec.RunSpec`), the one object that also built the playground's
own `GRPOConfig`. Pushing to the Hub lives in `playground.export.hub`, the model card in
`playground.export.model_card`.
"""

from playground.export.common import EMBEDDED_HUB_ID, zip_folder
from playground.export.recipe import export_recipe, export_script
from playground.export.weights import export_adapter_zip, export_merged
from playground.spec import available_reporters


__all__ = [
    "EMBEDDED_HUB_ID",
    "available_reporters",
    "export_adapter_zip",
    "export_merged",
    "export_recipe",
    "export_script",
    "zip_folder",
]
