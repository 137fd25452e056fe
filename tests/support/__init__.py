"""What the tests and the bench scripts share, kept out of the installed package: tiny random models and the run spec
they train with (`tiny_models`), and a raw client of a running app's queue (`queue_client`)."""
