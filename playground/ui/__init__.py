"""The Gradio web app: one module per tab, composed in `playground.ui.app.build_app`. The engine never imports this."""
