# expect: ok
# category: network
# mode: public
# values: 5.0,4.0
# asyncio's event loop makes a socket pair; that still works without network.
import asyncio


async def reward(completions, **kwargs):
    await asyncio.sleep(0)
    return [float(len(c)) for c in completions]
